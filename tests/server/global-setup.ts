/**
 * Global setup of the "server" vitest project: finds a PostgreSQL server for the
 * integration tests and hands its admin URL to every test file as `inject("pgUrl")`.
 *
 * 1. `TEST_DATABASE_URL` set → that server is used as is (nothing started, nothing stopped).
 * 2. PostgreSQL binaries installed (`PG_BIN`, else /usr/lib/postgresql/15/bin, else the newest
 *    /usr/lib/postgresql/<n>/bin) → a throwaway cluster (scripts/pg-cluster.ts) in a temp dir,
 *    trust auth, loopback only, a free port, fsync off; stopped and deleted in the teardown.
 * 3. Neither → `null`: tests run on PGlite only, and this setup says so.
 *
 * Each test file then creates its own database with `createTestDatabase()` (tests/server/pg.ts).
 *
 * Migrated templates: a server started by the harness begins from a copy of a database migrated
 * here once — `CREATE DATABASE … TEMPLATE` on PostgreSQL, a `dumpDataDir()` tarball on PGlite —
 * rather than migrating its own: creating and migrating a PGlite cluster takes seconds, and the
 * suite starts a few hundred servers. Servers still run `migrate()` (it finds nothing to do), and
 * tests of the migrations themselves start from empty databases.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely } from "kysely";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { findPgBin, startPgCluster } from "../../scripts/pg-cluster";
import { migrate } from "../../server/db";
import { PGliteDialect } from "../../server/db/pglite-dialect";
import { PGLITE_EXTENSIONS } from "../../server/db/pglite-extensions";
import { migratePostgres } from "../../server/db/postgres";
import { buildChildBundles, type ChildEntry } from "./child-bundle";
import { startS3rver } from "./s3";

declare module "vitest" {
  export interface ProvidedContext {
    /** Admin URL of a PostgreSQL server for tests, or null when only PGlite is available. */
    pgUrl: string | null;
    /** URL of the loopback S3-compatible server (s3rver) for the S3 storage driver. */
    s3Url: string;
    /** A migrated PGlite data folder (a tarball) for servers to start from. */
    pgliteTemplate: string;
    /** The name of a migrated database on `pgUrl` to create test databases from (or null). */
    pgTemplate: string | null;
    /** Each child entry's bundle (tests/server/child-bundle.ts), run instead of its source under tsx. */
    childBundles: Record<ChildEntry, string>;
  }
}

const ROOT = path.resolve(import.meta.dirname, "../..");

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const s3 = await startS3rver();
  console.log(`[server tests] S3: s3rver at ${s3.url}`);
  project.provide("s3Url", s3.url);
  const stopPg = await setupPostgres(project);
  const templateDir = mkdtempSync(path.join(os.tmpdir(), "atelier-test-template-"));
  project.provide("pgliteTemplate", await pgliteTemplate(templateDir));
  // Inside the project, so the bundles' imports of packages find its node_modules.
  mkdirSync(path.join(ROOT, ".tmp"), { recursive: true });
  const bundleDir = mkdtempSync(path.join(ROOT, ".tmp", "child-bundles-"));
  project.provide("childBundles", await buildChildBundles(bundleDir));
  return async () => {
    stopPg?.();
    rmSync(templateDir, { recursive: true, force: true });
    rmSync(bundleDir, { recursive: true, force: true });
    await s3.stop();
  };
}

/** Migrates an in-memory PGlite and writes its data folder to a tarball; answers its path. */
async function pgliteTemplate(dir: string): Promise<string> {
  const pglite = await PGlite.create("memory://", { extensions: PGLITE_EXTENSIONS });
  const db = new Kysely<never>({ dialect: new PGliteDialect(pglite) });
  await migrate(db as never);
  const dump = await pglite.dumpDataDir("none");
  await pglite.close();
  const file = path.join(dir, "pglite-migrated.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  return file;
}

/**
 * Creates and migrates a template database on the server behind `adminUrl`; answers its name
 * and how to drop it. Named for this run: another run may share the server (a TEST_DATABASE_URL,
 * or the walkthrough test's project copy running its own suite, with its own migrations, on
 * this one's cluster).
 */
async function postgresTemplate(adminUrl: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `atelier_template_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migratePostgres(url.toString(), migrate);
  return { name, drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

async function setupPostgres(project: TestProject): Promise<(() => void) | undefined> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    console.log("[server tests] PostgreSQL: TEST_DATABASE_URL");
    project.provide("pgUrl", given);
    const template = await postgresTemplate(given);
    project.provide("pgTemplate", template.name);
    return () => void template.drop().catch(() => {});
  }
  const bin = findPgBin();
  if (!bin) {
    console.warn(
      "[server tests] PostgreSQL: not available (no TEST_DATABASE_URL, no binaries under /usr/lib/postgresql) — running on PGlite only",
    );
    project.provide("pgUrl", null);
    project.provide("pgTemplate", null);
    return undefined;
  }
  const cluster = await startPgCluster(bin, {
    // Speed over durability: the cluster is deleted after the run.
    settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off", max_connections: 200 },
  });
  console.log(`[server tests] PostgreSQL: throwaway cluster from ${bin} at ${cluster.url}`);
  project.provide("pgUrl", cluster.url);
  project.provide("pgTemplate", (await postgresTemplate(cluster.url)).name);
  return () => cluster.stop();
}
