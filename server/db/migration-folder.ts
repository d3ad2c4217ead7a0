/**
 * Migrations are the files of server/db/migrations, found on disk at start-up: adding one is
 * adding its file. A file's name without `.ts` is the migration's name in the database's
 * migrations table ("0001-platform"), so the order is the names' order.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Migration, MigrationProvider } from "kysely";

export const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));

/** `NNNN-words-in-kebab-case.ts`: the number orders it, the words say what it does. */
export const MIGRATION_FILE = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.ts$/;

/** The migration files of a folder, in order; a stray or twice-numbered file is an error, never skipped. */
export async function migrationFiles(dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => !f.startsWith(".")).sort();
  const byNumber = new Map<string, string>();
  for (const file of files) {
    const match = MIGRATION_FILE.exec(file);
    if (!match) {
      throw new Error(
        `${path.join(dir, file)} is not a migration: name it NNNN-what-it-does.ts, or move it out`,
      );
    }
    const other = byNumber.get(match[1]);
    // Two branches that each added the next number: a database that ran one would refuse the other.
    if (other) throw new Error(`${other} and ${file} have the same number: renumber the newer one`);
    byNumber.set(match[1], file);
  }
  return files;
}

/** Kysely's provider over the folder (loaded by tsx, vitest and `npm start` alike). */
export function folderMigrations(dir = MIGRATIONS_DIR): MigrationProvider {
  return {
    async getMigrations() {
      const migrations: Record<string, Migration> = {};
      for (const file of await migrationFiles(dir)) {
        const module = (await import(pathToFileURL(path.join(dir, file)).href)) as Partial<Migration>;
        if (typeof module.up !== "function") throw new Error(`${file} exports no up(db) function`);
        migrations[file.replace(/\.ts$/, "")] = module as Migration;
      }
      return migrations;
    },
  };
}
