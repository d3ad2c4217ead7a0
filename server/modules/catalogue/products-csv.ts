/**
 * CSV import and export of products, for catalogue admins who live in spreadsheets.
 * Categories and sub-categories are written by name; images as URLs separated by "|".
 * An import validates every row first and writes nothing unless all rows are valid.
 */
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { sql } from "kysely";
import { productSchema } from "../../../schemas/products";
import type { AppContext } from "../../context";
import { badRequest, type FieldError, fieldErrors } from "../../http/errors";
import type { ListQuery } from "../../http/list-query";
import { compileBody } from "../../http/validation";
import { bodySchemaOf, type Row, toColumns } from "../../resources/records";
import type { AnyDb } from "../../resources/rules";
import type { ResourceService } from "../../resources/service";

export const CSV_COLUMNS = [
  "sku_code",
  "name",
  "description",
  "price",
  "currency",
  "category",
  "sub_category",
  "status",
  "images",
] as const;
export const MAX_IMPORT_ROWS = 50_000;
const MAX_REPORTED_ERRORS = 200;

const validateRow = compileBody(bodySchemaOf(productSchema, "create"));

async function lookups(db: AnyDb) {
  const categories = await db.selectFrom("categories").select(["id", "name"]).execute();
  const subs = await db.selectFrom("sub_categories").select(["id", "name", "category_id"]).execute();
  return { categories, subs };
}

export async function exportProducts(
  ctx: AppContext,
  service: ResourceService,
  query: ListQuery,
): Promise<string> {
  const db = ctx.db as unknown as AnyDb;
  const { data } = await service.list(query, true);
  const { categories, subs } = await lookups(db);
  const catName = new Map(categories.map((c) => [c.id as string, c.name as string]));
  const subName = new Map(subs.map((c) => [c.id as string, c.name as string]));
  const records = data.map((p) => [
    p.sku_code,
    p.name,
    p.description ?? "",
    (p.price as number).toFixed(2),
    p.currency,
    catName.get(p.category_id as string) ?? "",
    p.sub_category_id ? (subName.get(p.sub_category_id as string) ?? "") : "",
    p.status,
    ((p.images as string[] | null) ?? []).join("|"),
  ]);
  return stringify([[...CSV_COLUMNS], ...records]);
}

/** Parses and validates a CSV; throws 400 listing row/field errors, or writes all rows. */
export async function importProducts(
  ctx: AppContext,
  csv: string,
  actorId: string,
): Promise<{ imported: number; ids: string[] }> {
  let rows: Record<string, string>[];
  try {
    rows = parse(csv, { columns: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (error) {
    throw badRequest(`The file is not valid CSV: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!rows.length) throw badRequest("The file has no product rows");
  if (rows.length > MAX_IMPORT_ROWS)
    throw badRequest(`At most ${MAX_IMPORT_ROWS} rows can be imported at once`);
  const header = Object.keys(rows[0]);
  const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
  const missing = ["sku_code", "name", "price", "category"].filter((h) => !header.includes(h));
  if (unknown.length || missing.length) {
    throw badRequest("The CSV header does not match", [
      ...missing.map((h) => ({ field: h, message: "column is missing" })),
      ...unknown.map((h) => ({ field: h, message: "is not a known column" })),
    ]);
  }

  const db = ctx.db as unknown as AnyDb;
  const { categories, subs } = await lookups(db);
  const catId = new Map(categories.map((c) => [String(c.name).toLowerCase(), c.id as string]));
  const errors: FieldError[] = [];
  const seen = new Map<string, number>();
  const values: Row[] = [];

  rows.forEach((raw, index) => {
    const line = index + 2; // 1-based, after the header
    const add = (field: string, message: string) => errors.push({ field: `row ${line}: ${field}`, message });
    const body: Row = { sku_code: raw.sku_code, name: raw.name };
    if (raw.description) body.description = raw.description;
    body.price = raw.price === "" || raw.price === undefined ? undefined : Number(raw.price);
    if (raw.price && !Number.isFinite(body.price)) body.price = raw.price; // let the schema say why
    if (raw.currency) body.currency = raw.currency;
    if (raw.status) body.status = raw.status;
    if (raw.images)
      body.images = raw.images
        .split("|")
        .map((s) => s.trim())
        .filter(Boolean);
    const categoryId = raw.category ? catId.get(raw.category.toLowerCase()) : undefined;
    if (raw.category && !categoryId) add("category", `no category named '${raw.category}'`);
    body.category_id = categoryId ?? (raw.category ? "00000000-0000-4000-8000-000000000000" : undefined);
    if (raw.sub_category) {
      const sub = subs.find(
        (s) =>
          s.category_id === categoryId && String(s.name).toLowerCase() === raw.sub_category.toLowerCase(),
      );
      if (sub) body.sub_category_id = sub.id;
      else if (categoryId)
        add("sub_category", `no sub-category named '${raw.sub_category}' in '${raw.category}'`);
    }
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    if (!validateRow(body)) {
      for (const e of fieldErrors(validateRow.errors ?? [])) {
        add(e.field === "category_id" ? "category" : e.field, e.message);
      }
    }
    const first = seen.get(String(raw.sku_code));
    if (raw.sku_code && first !== undefined) add("sku_code", `repeats row ${first}`);
    else seen.set(String(raw.sku_code), line);
    values.push(body);
  });

  if (errors.length) {
    const shown = errors.slice(0, MAX_REPORTED_ERRORS);
    const more = errors.length - shown.length;
    throw badRequest(
      `Nothing was imported: ${errors.length} error${errors.length === 1 ? "" : "s"} in the file${more ? ` (first ${shown.length} listed)` : ""}`,
      shown,
    );
  }

  const ids = await db.transaction().execute(async (trx) => {
    const out: string[] = [];
    for (let i = 0; i < values.length; i += 500) {
      const batch = values.slice(i, i + 500).map((v) => ({
        currency: "INR",
        status: "draft",
        ...toColumns(productSchema, v),
        created_by: actorId,
        updated_by: actorId,
      }));
      const written = await trx
        .insertInto("products")
        .values(batch)
        .onConflict((oc) =>
          oc.column("sku_code").doUpdateSet((eb) => ({
            name: eb.ref("excluded.name"),
            description: eb.ref("excluded.description"),
            price: eb.ref("excluded.price"),
            currency: eb.ref("excluded.currency"),
            category_id: eb.ref("excluded.category_id"),
            sub_category_id: eb.ref("excluded.sub_category_id"),
            status: eb.ref("excluded.status"),
            images: eb.ref("excluded.images"),
            updated_by: eb.ref("excluded.updated_by"),
            updated_at: sql`now()`,
          })),
        )
        .returning("id")
        .execute();
      out.push(...written.map((r) => r.id as string));
    }
    return out;
  });
  return { imported: ids.length, ids };
}
