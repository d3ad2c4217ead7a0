/**
 * Relation fields in CSV files: written as the related record's label (`x-relation.labelField`),
 * read back by label or by ID. Looked up once per chunk of rows, never once per row.
 */
import { sql } from "kysely";
import { type ResourceDefinition, USERS_RELATION } from "../../../resources/contract";
import type { EntitySchema } from "../../../schemas/contract";
import { UUID } from "../../../schemas/uuid";
import { personName } from "../../modules/users/people";
import type { Row } from "../records";
import type { AnyDb } from "../rules";

export interface RelationField {
  field: string;
  table: string;
  labelField: string;
  /** A user (an owner): named by first and last name, found by name or email. */
  person?: boolean;
  /** The related resource's singular label, lower case ("category"). */
  singular: string;
  /** `x-relation.within`: a field both records have that must be equal. */
  within?: string;
  /** That field's title, lower case ("category"). */
  withinTitle?: string;
}

export const isUuid = (text: string) => UUID.test(text);

/** The relation fields of a schema, with what the lookups need of their targets. */
export function relationFieldsOf(
  schema: EntitySchema,
  resolve: (name: string) => ResourceDefinition | undefined,
): RelationField[] {
  return Object.entries(schema.properties).flatMap(([field, f]) => {
    const relation = f["x-relation"];
    if (!relation) return [];
    const target = resolve(relation.resource);
    const person = relation.resource === USERS_RELATION;
    return [
      {
        field,
        table: target?.schema["x-table"] ?? relation.resource.replace(/-/g, "_"),
        labelField: relation.labelField,
        ...(person ? { person } : {}),
        singular: person ? "user" : (target?.singular ?? relation.resource).toLowerCase(),
        within: relation.within,
        withinTitle: relation.within
          ? (schema.properties[relation.within]?.title ?? relation.within).toLowerCase()
          : undefined,
      },
    ];
  });
}

/** The label of a related record in SQL: its label field, or a person's name. */
const labelOf = (r: RelationField) => (r.person ? personName() : sql.ref(r.labelField));

/** Labels of the related records that `rows` point at, by field, then by id. */
export async function labelsOf(
  db: AnyDb,
  relations: readonly RelationField[],
  rows: readonly Row[],
): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  for (const r of relations) {
    const ids = [
      ...new Set(rows.map((row) => row[r.field]).filter((v): v is string => typeof v === "string")),
    ];
    const labels = new Map<string, string>();
    if (ids.length) {
      const found = await db
        .selectFrom(r.table)
        .select(["id", sql<string>`${labelOf(r)}::text`.as("label")])
        .where("id", "in", ids)
        .execute();
      for (const f of found) labels.set(String(f.id), f.label ?? "");
    }
    out.set(r.field, labels);
  }
  return out;
}

/** A related record a cell may name. */
export interface Candidate {
  id: string;
  /** Its `within` field's value, when the relation is scoped. */
  within: string | null;
}

/** The records that the cells of one relation column name, by ID and by label (lower case). */
export interface Candidates {
  byId: Map<string, Candidate>;
  byLabel: Map<string, Candidate[]>;
}

/** Looks up the records named by `cells` (IDs or labels, any case) in one query. */
export async function candidatesOf(
  db: AnyDb,
  r: RelationField,
  cells: Iterable<string>,
): Promise<Candidates> {
  const ids = new Set<string>();
  const labels = new Set<string>();
  for (const cell of cells) {
    if (isUuid(cell)) ids.add(cell.toLowerCase());
    labels.add(cell.toLowerCase());
  }
  const result: Candidates = { byId: new Map(), byLabel: new Map() };
  if (!labels.size) return result;
  const label = sql<string>`lower(${labelOf(r)}::text)`;
  // A person is also found by email address (stored lower-cased).
  const email = sql<string>`lower(${sql.ref("email")})`;
  const found = await db
    .selectFrom(r.table)
    .select([
      "id",
      label.as("label"),
      ...(r.person ? [email.as("email")] : []),
      ...(r.within ? [sql<string | null>`${sql.ref(r.within)}::text`.as("within")] : []),
    ])
    .where((eb) =>
      eb.or([
        ...(ids.size ? [eb("id", "in", [...ids])] : []),
        eb(label, "in", [...labels]),
        ...(r.person ? [eb(email, "in", [...labels])] : []),
      ]),
    )
    .execute();
  for (const f of found) {
    const candidate: Candidate = {
      id: String(f.id),
      within: (f.within as string | null | undefined) ?? null,
    };
    result.byId.set(candidate.id, candidate);
    for (const key of new Set([f.label, ...(r.person ? [f.email as string] : [])])) {
      const list = result.byLabel.get(key) ?? [];
      list.push(candidate);
      result.byLabel.set(key, list);
    }
  }
  return result;
}

/**
 * The id a relation cell names, or why it names none: an ID of a record, else the label of
 * exactly one record (among those sharing the row's `within` value, when scoped).
 */
export function resolveCell(
  r: RelationField,
  candidates: Candidates,
  cell: string,
  within: unknown,
): { id: string } | { error: string } {
  const byId = isUuid(cell) ? candidates.byId.get(cell.toLowerCase()) : undefined;
  if (byId) return { id: byId.id };
  // Quoted back in the message, but never a whole pasted paragraph.
  const shown = cell.length > 60 ? `${cell.slice(0, 57)}…` : cell;
  const all = candidates.byLabel.get(cell.toLowerCase()) ?? [];
  const scoped = r.within && typeof within === "string" ? all.filter((c) => c.within === within) : all;
  if (scoped.length === 1) return { id: scoped[0].id };
  if (scoped.length > 1) {
    return {
      error: `${scoped.length} ${r.singular} records are named '${shown}'; write the ID of the one you mean`,
    };
  }
  if (all.length && scoped !== all)
    return { error: `No ${r.singular} is named '${shown}' in the chosen ${r.withinTitle}` };
  return { error: `No ${r.singular} has the name or ID '${shown}'` };
}
