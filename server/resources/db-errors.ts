/**
 * A resource's database errors in words a person can act on (the engine's writes, CSV imports):
 * a unique violation is a 409 naming its fields, a missing related record a 400 on its field, a
 * record still in use a 409.
 */
import type { ResourceDefinition } from "../../resources/contract";
import { fieldTitle as titleOf } from "../../schemas/error-messages";
import { withArticle } from "../../src/lib/text";
import { badRequest, conflict, HttpError } from "../http/errors";
import { type ScopedRelation, uniqueName } from "./columns";

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
  table?: string;
}

export function dbErrorInWords(
  error: unknown,
  def: ResourceDefinition,
  table: string,
  scopedRelations: readonly ScopedRelation[],
  resolve: (name: string) => ResourceDefinition | undefined,
): unknown {
  if (error instanceof HttpError) return error;
  const e = error as PgError;
  const { schema } = def;
  if (e.code === "23505") {
    const fields = (schema["x-unique"] ?? []).find((f) => uniqueName(table, f) === e.constraint) ?? [];
    const label = fields.map((f) => titleOf(schema, f)).join(" and ");
    return conflict(
      `${withArticle(def.singular.toLowerCase(), true)} with this ${label || "value"} already exists`,
      fields.map((field) => ({ field, message: `${titleOf(schema, field)} is already in use` })),
    );
  }
  // 23001: ON DELETE RESTRICT as PostgreSQL 16+ reports it (PGlite); 23503 elsewhere.
  if (e.code === "23503" || e.code === "23001") {
    const scoped = scopedRelations.find((r) => r.constraint === e.constraint);
    if (scoped) {
      const title = (f: string) => titleOf(schema, f).toLowerCase();
      const message = `The ${title(scoped.field)} does not belong to the chosen ${title(scoped.within)}`;
      return badRequest(message, [{ field: scoped.field, message }]);
    }
    // Our table's foreign key: the related record is missing. Another table's: we are still used.
    const field = Object.keys(schema.properties).find((f) => e.constraint === `${table}_${f}_fkey`);
    if (field) {
      const target = resolve(schema.properties[field]["x-relation"]?.resource ?? "");
      const message = `The chosen ${(target?.singular ?? titleOf(schema, field)).toLowerCase()} does not exist`;
      return badRequest(message, [{ field, message }]);
    }
    const user = resourceOfTable(resolve, e.table);
    return conflict(
      `This ${def.singular.toLowerCase()} is still used by ${user ? user.label.toLowerCase() : "other records"}; remove those first`,
    );
  }
  return error;
}

function resourceOfTable(
  resolve: (name: string) => ResourceDefinition | undefined,
  table: string | undefined,
): ResourceDefinition | undefined {
  if (!table) return undefined;
  return resolve(table.replace(/_/g, "-"));
}
