/**
 * `npm run migration:new <entity…>`: writes the next migration for new or changed entities,
 * generated from their schemas (server/db/migration-new.ts), prints it for review, and updates
 * their snapshots. Nothing changed: says so and writes nothing.
 *
 *   npm run migration:new brands
 *   npm run migration:new -- categories products --name schema-constraints
 *   npm run migration:new -- brands --dry-run      (print only)
 */
import path from "node:path";
import { RESOURCES } from "../resources/index";
import { writeMigration } from "../server/db/migration-new";

const root = path.resolve(import.meta.dirname, "..");
const relative = (file: string) => path.relative(root, file);

function parse(args: string[]): { entities: string[]; name?: string; dryRun: boolean } {
  const entities: string[] = [];
  let name: string | undefined;
  let dryRun = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--dry-run") dryRun = true;
    else if (arg === "--name") name = args[++i];
    else if (arg.startsWith("--name=")) name = arg.slice("--name=".length);
    else if (arg.startsWith("-")) throw new Error(`unknown option ${arg}`);
    else entities.push(arg);
  }
  return { entities, name, dryRun };
}

async function main(): Promise<number> {
  const known = RESOURCES.map((r) => r.name).sort();
  let options: ReturnType<typeof parse>;
  try {
    options = parse(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    options = { entities: [], dryRun: false };
  }
  if (!options.entities.length) {
    process.stderr.write(
      "usage: npm run migration:new <entity…>  (options after --: --name <words>, --dry-run)\n" +
        `entities: ${known.join(", ")}\n`,
    );
    return 2;
  }
  const result = await writeMigration({ ...options, resources: RESOURCES });
  for (const entity of result.plan.unchanged) {
    process.stdout.write(`${entity}: its table already matches its schema (snapshot); nothing to do.\n`);
  }
  if (!result.migration) {
    process.stdout.write("No change: no migration written.\n");
    return 0;
  }
  const { file, source } = result.migration;
  const verb = options.dryRun ? "Would write" : "Wrote";
  process.stdout.write(`\n${verb} ${relative(file)}:\n\n${source}\n`);
  for (const snapshot of result.snapshots) process.stdout.write(`Updated ${relative(snapshot)}\n`);
  const reviews = result.plan.changes.reduce((n, c) => n + c.reviews, 0);
  if (reviews) {
    process.stdout.write(
      `\n${reviews} step${reviews === 1 ? "" : "s"} marked "-- review:": read ${reviews === 1 ? "it" : "them"} and adjust the file before it runs.\n`,
    );
  }
  if (!options.dryRun) {
    process.stdout.write("It runs at the next start of the server (and in every test database).\n");
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // An unknown entity, a name clash or a bad schema: the message is the whole story.
    process.stderr.write(`migration:new: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
