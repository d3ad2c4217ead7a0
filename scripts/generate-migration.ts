/**
 * Prints the CREATE TABLE of one or more resources, generated from their schemas, for a
 * new migration file (review it, then paste it into server/db/migrations/NNNN-name.ts).
 *
 *   npx tsx scripts/generate-migration.ts categories sub-categories products
 */
import { RESOURCES, resourceByName } from "../resources/index";
import { createTableSql } from "../server/resources/ddl";

const tableOf = (name: string) => {
  const r = resourceByName(name);
  if (!r) throw new Error(`unknown resource '${name}'`);
  return r.schema["x-table"];
};

const names = process.argv.slice(2);
if (!names.length) {
  process.stderr.write(
    `usage: generate-migration <resource…>; resources: ${RESOURCES.map((r) => r.name).join(", ")}\n`,
  );
  process.exit(2);
}
for (const name of names) {
  const resource = resourceByName(name);
  if (!resource) throw new Error(`unknown resource '${name}'`);
  process.stdout.write(`-- ${resource.name}\n${createTableSql(resource.schema, tableOf)}\n\n`);
}
