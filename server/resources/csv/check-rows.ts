/**
 * Checking an import's rows against the header's columns, a chunk at a time: the stored
 * records their keys name (locked for the import's transaction), their relations by label or
 * ID, and their bodies by the one validator. What is wrong becomes that row's errors.
 */
import type { ResourceDefinition } from "../../../resources/contract";
import { canCreate } from "../../../resources/contract";
import { plural } from "../../../src/lib/text";
import { fieldErrors } from "../../http/errors";
import { compileBody } from "../../http/validation";
import { columnAllowsNull } from "../columns";
import { optionFieldsOf, optionProblems } from "../options";
import { bodySchemaOf, type Row } from "../records";
import type { AnyDb } from "../rules";
import { inexactNumber, parseCell, unescapeFormula } from "./cells";
import { type CsvColumn, keyFieldOf } from "./header";
import type { CsvRow } from "./parse";
import {
  type Candidates,
  candidatesOf,
  isUuid,
  type RelationField,
  relationFieldsOf,
  resolveCell,
} from "./relations";
import { columnTitle, ROW_ITSELF, type RowError } from "./row-errors";
import type { Write } from "./write";

/** What the checker needs of the import. */
export interface CheckOptions {
  def: ResourceDefinition;
  resolve: (name: string) => ResourceDefinition | undefined;
}

type Validate = ReturnType<typeof compileBody>;
const validators = new WeakMap<ResourceDefinition, { create: Validate; update: Validate }>();

/** The create and update body validators of a resource, compiled once. */
function validatorsOf(def: ResourceDefinition) {
  let found = validators.get(def);
  if (!found) {
    found = {
      create: compileBody(bodySchemaOf(def.schema, "create")),
      update: compileBody(bodySchemaOf(def.schema, "update")),
    };
    validators.set(def, found);
  }
  return found;
}

type KeyOf = { key: string | number } | { error: string } | null;

/** Checks rows against the header's columns: finds their records, resolves relations, validates. */
export class RowChecker {
  private readonly key: string;
  private readonly keyAt: number;
  private readonly keyTitle: string;
  /** Relation columns of the file; scoped ones last (they need the field they are scoped by). */
  private readonly relations: Array<RelationField & { at: number }>;
  /** Keys seen so far in the file, with the row that held each first. */
  private readonly seen = new Map<string, number>();
  /**
   * The key field's own schema check: a key cell is looked up before its row is validated, and
   * a value its column cannot hold (`abc` for a number) would fail the lookup in the database.
   */
  private readonly validKey: Validate;

  constructor(
    private readonly options: CheckOptions,
    private readonly columns: CsvColumn[],
  ) {
    const { schema } = options.def;
    this.key = keyFieldOf(schema);
    this.keyAt = columns.findIndex((c) => c.field === this.key);
    this.keyTitle = columnTitle(schema, this.key);
    this.validKey = compileBody({
      type: "object",
      properties: { [this.key]: schema.properties[this.key] ?? {} },
    });
    this.relations = relationFieldsOf(schema, options.resolve)
      .map((r) => ({ ...r, at: columns.findIndex((c) => c.field === r.field) }))
      .filter((r) => r.at >= 0)
      .sort((a, b) => Number(Boolean(a.within)) - Number(Boolean(b.within)));
  }

  /** The key a row holds; null for none (a new record). */
  private keyOf(row: CsvRow): KeyOf {
    const cell = this.keyAt < 0 ? "" : (row.cells[this.keyAt] ?? "");
    if (!cell) return null;
    if (this.key === "id") {
      return isUuid(cell)
        ? { key: cell.toLowerCase() }
        : { error: "ID must be a UUID, such as 0b7c5a3e-9d1f-4c2a-8e6b-1f2d3c4b5a69" };
    }
    const value = parseCell(this.columns[this.keyAt].schema, cell);
    if (!this.validKey({ [this.key]: value })) {
      return {
        error: fieldErrors(this.validKey.errors ?? [])[0]?.message ?? `${this.keyTitle} is not valid`,
      };
    }
    // Email addresses are stored lower-cased (records.ts toColumns): `Asha@X.com` is asha@x.com.
    if (typeof value === "string" && this.options.def.schema.properties[this.key]?.format === "email")
      return { key: value.toLowerCase() };
    return typeof value === "string" || typeof value === "number" ? { key: value } : null;
  }

  /** The stored records a chunk's keys name, locked for the transaction, by key. */
  private async recordsOf(trx: AnyDb, keys: KeyOf[]): Promise<Map<string, Row>> {
    const wanted = [...new Set(keys.flatMap((k) => (k && "key" in k ? [k.key] : [])))];
    const found = new Map<string, Row>();
    if (!wanted.length) return found;
    const { schema } = this.options.def;
    const rows = await trx
      .selectFrom(schema["x-table"])
      .selectAll()
      .where(this.key, "in", wanted)
      .forUpdate()
      .execute();
    for (const row of rows) found.set(String(row[this.key]), row);
    return found;
  }

  async check(trx: AnyDb, rows: CsvRow[]): Promise<{ writes: Write[]; errors: RowError[] }> {
    const { def } = this.options;
    const keys = rows.map((row) => this.keyOf(row));
    const stored = await this.recordsOf(trx, keys);
    const candidates = new Map<string, Candidates>();
    for (const r of this.relations) {
      // A label the export escaped ('=…) names the record without the apostrophe.
      const cells = rows.map((row) => unescapeFormula(row.cells[r.at] ?? "")).filter(Boolean);
      candidates.set(r.field, await candidatesOf(trx, r, cells));
    }

    const errors: RowError[] = [];
    const writes: Write[] = [];
    for (const [i, row] of rows.entries()) {
      const add = (field: string, message: string) => errors.push({ row: row.row, field, message });
      const key = keys[i];
      if (row.cells.slice(this.columns.length).some(Boolean)) {
        add(
          ROW_ITSELF,
          `This row has ${plural(row.cells.length, "cell")}, but the header has ${plural(this.columns.length, "column")}`,
        );
        continue;
      }
      if (key && "error" in key) {
        add(this.keyTitle, key.error);
        continue;
      }
      if (key) {
        const first = this.seen.get(String(key.key));
        if (first !== undefined) {
          add(
            this.keyTitle,
            `${this.keyTitle} repeats row ${first}: a file may hold each ${def.singular.toLowerCase()} once`,
          );
          continue;
        }
        this.seen.set(String(key.key), row.row);
      }
      const record = key ? (stored.get(String(key.key)) ?? null) : null;
      if (!record && key && this.key === "id") {
        add(this.keyTitle, `No ${def.singular.toLowerCase()} has this ID`);
        continue;
      }
      if (!record && !canCreate(def)) {
        add(
          this.keyTitle,
          `No ${def.singular.toLowerCase()} has this ${this.keyTitle}; ${def.label.toLowerCase()} are not created by import, only updated`,
        );
        continue;
      }
      const body = this.bodyOf(row, record, candidates, add);
      if (body) writes.push({ row: row.row, existing: record, body });
    }
    return { writes: await this.withOptions(trx, writes, errors), errors };
  }

  /** The writes whose `x-options` values are offered options (one query a chunk); the others' errors added. */
  private async withOptions(trx: AnyDb, writes: Write[], errors: RowError[]): Promise<Write[]> {
    const { schema } = this.options.def;
    if (!writes.length || !optionFieldsOf(schema).length) return writes;
    const problems = await optionProblems(trx, schema, writes);
    return writes.filter((w, i) => {
      for (const p of problems[i])
        errors.push({ row: w.row, field: columnTitle(schema, p.field), message: p.message });
      return !problems[i].length;
    });
  }

  /** A row's body, validated; null when it has errors (added) or nothing to change. */
  private bodyOf(
    row: CsvRow,
    record: Row | null,
    candidates: Map<string, Candidates>,
    add: (field: string, message: string) => void,
  ): Row | null {
    const { schema } = this.options.def;
    const body: Row = {};
    const failed = new Set<string>();
    const fail = (field: string, message: string) => {
      failed.add(field);
      add(columnTitle(schema, field), message);
    };
    for (const [at, column] of this.columns.entries()) {
      const { field } = column;
      const cell = row.cells[at] ?? "";
      if (field === "id" || (cell && column.schema["x-relation"])) continue;
      const inexact = cell ? inexactNumber(column.schema, cell) : null;
      if (inexact) fail(field, `${columnTitle(schema, field)} ${inexact}`);
      else if (cell) body[field] = parseCell(column.schema, cell);
      else if (!record)
        continue; // a new record: the default, or "is required" below
      else if (column.schema.default !== undefined) body[field] = column.schema.default;
      else if (columnAllowsNull(schema, field)) body[field] = null;
      else fail(field, `${columnTitle(schema, field)} is required`);
    }
    for (const r of this.relations) {
      const cell = unescapeFormula(row.cells[r.at] ?? "");
      if (!cell) continue;
      const within = r.within ? (r.within in body ? body[r.within] : record?.[r.within]) : undefined;
      const found = resolveCell(r, candidates.get(r.field) as Candidates, cell, within);
      if ("id" in found) body[r.field] = found.id;
      else fail(r.field, found.error);
    }
    if (record && !failed.size && !Object.keys(body).length) return null; // nothing to change

    const validate = validatorsOf(this.options.def)[record ? "update" : "create"];
    if (!validate(body)) {
      for (const e of fieldErrors(validate.errors ?? [])) {
        const field = e.field.split(".")[0];
        if (!failed.has(field)) fail(field, e.message);
      }
    }
    return failed.size ? null : body;
  }
}
