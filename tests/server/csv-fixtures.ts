/**
 * Throwaway entities for the CSV tests, registered only in those tests (as
 * resource-contract.test.ts does): `gadgets` has a field of every kind a CSV cell can hold,
 * `stamps` has no generic create route. Plus helpers to call the CSV routes.
 */
import { parse } from "csv-parse/sync";
import type { ResourceDefinition } from "../../resources/contract";
import { RESOURCES } from "../../resources/index";
import { MODULE_IDS } from "../../resources/modules";
import { auditProperties, type EntitySchema } from "../../schemas/contract";
import { badRequest } from "../../server/http/errors";
import { createTableSql } from "../../server/resources/ddl";
import { RULES } from "../../server/resources/index";
import type { ResourceRules } from "../../server/resources/rules";
import type { StartOptions, TestServer } from "./harness";

export const gadgetSchema = {
  $id: "gadget",
  title: "Gadget",
  type: "object",
  additionalProperties: false,
  "x-table": "csv_gadgets",
  "x-label": "title",
  "x-defaultSort": "title",
  "x-list": ["title", "weight", "price"],
  "x-searchable": ["title", "note"],
  "x-filterable": ["title", "weight", "price", "in_stock", "kind", "made_on", "checked_at", "category_id"],
  "x-unique": [["title"]],
  required: ["title"],
  properties: {
    ...auditProperties,
    title: { type: "string", title: "Title", minLength: 2, maxLength: 60 },
    note: { type: "string", title: "Note", maxLength: 200 },
    weight: { type: "integer", title: "Weight", minimum: -100, maximum: 100000 },
    price: { type: "number", title: "Price", minimum: 0, maximum: 1000000, multipleOf: 0.01 },
    in_stock: { type: "boolean", title: "In stock", default: true },
    kind: { type: "string", title: "Kind", enum: ["a", "b"], "x-enumLabels": ["Alpha", "Beta"] },
    made_on: { type: "string", format: "date", title: "Made on" },
    checked_at: { type: "string", format: "date-time", title: "Checked at" },
    photos: {
      type: "array",
      title: "Photos",
      items: { type: "string", format: "uri", maxLength: 500 },
      maxItems: 5,
      "x-media": true,
    },
    category_id: {
      type: "string",
      format: "uuid",
      title: "Category",
      "x-relation": { resource: "categories", labelField: "name" },
    },
  },
} as const satisfies EntitySchema;

export const gadgets: ResourceDefinition = {
  name: "gadgets",
  schema: gadgetSchema,
  moduleID: MODULE_IDS.products,
  base: "api",
  label: "Gadgets",
  singular: "Gadget",
  icon: "ToolOutlined",
};

/** A rule the schema cannot say: gadgets of kind b weigh at least 10. */
export const heavyKindB: ResourceRules = {
  async beforeWrite({ existing, values }) {
    const kind = "kind" in values ? values.kind : existing?.kind;
    const weight = ("weight" in values ? values.weight : existing?.weight) as number | null | undefined;
    if (kind === "b" && (weight ?? 0) < 10) {
      throw badRequest("A gadget of kind b is heavy", [
        { field: "weight", message: "Weight must be at least 10 for kind b" },
      ]);
    }
  },
};

export const stampSchema = {
  $id: "stamp",
  title: "Stamp",
  type: "object",
  additionalProperties: false,
  "x-table": "csv_stamps",
  "x-label": "code",
  "x-defaultSort": "code",
  "x-list": ["code", "label"],
  "x-searchable": ["code"],
  "x-filterable": ["code"],
  "x-unique": [["code"]],
  required: ["code"],
  properties: {
    ...auditProperties,
    code: { type: "string", title: "Code", minLength: 1, maxLength: 20 },
    label: { type: "string", title: "Label", maxLength: 100 },
  },
} as const satisfies EntitySchema;

/** Stamps are made elsewhere (like PDFs, by upload): no generic create. */
export const stamps: ResourceDefinition = {
  name: "stamps",
  schema: stampSchema,
  moduleID: MODULE_IDS.products,
  base: "api",
  label: "Stamps",
  singular: "Stamp",
  icon: "TagOutlined",
  routes: { create: false },
};

const tableOf = (name: string) => {
  const r = [...RESOURCES, gadgets, stamps].find((d) => d.name === name);
  if (!r) throw new Error(name);
  return r.schema["x-table"];
};

/** Server options that register the two throwaway entities beside the real ones. */
export const csvServerOptions: StartOptions = {
  resources: [...RESOURCES, gadgets, stamps],
  setupSql: `${createTableSql(gadgetSchema, tableOf)}\n${createTableSql(stampSchema, tableOf)}`,
  rules: { ...RULES, gadgets: heavyKindB },
};

export interface ImportAnswer {
  status: number;
  body: {
    message: string;
    created: number;
    updated: number;
    errors: Array<{ row: number; field: string; message: string }>;
    details?: Array<{ row: number; field: string; message: string }>;
    statusCode?: number;
  };
}

/** Posts a CSV file to `<path>/import`, as a spreadsheet user's browser would. */
export async function importFile(
  s: TestServer,
  token: string,
  path: string,
  lines: string[] | string,
  dryRun = false,
): Promise<ImportAnswer> {
  const res = await fetch(`${s.baseUrl}${path}/import${dryRun ? "?dryRun=true" : ""}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "text/csv" },
    body: Array.isArray(lines) ? `${lines.join("\r\n")}\r\n` : lines,
  });
  return { status: res.status, body: (await res.json()) as ImportAnswer["body"] };
}

/** Downloads `<path>/export.csv?<query>`; the file's rows as arrays of cells (header first). */
export async function exportFile(s: TestServer, token: string, path: string, query = "") {
  const res = await fetch(`${s.baseUrl}${path}/export.csv${query ? `?${query}` : ""}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  const rows = res.ok ? (parse(text, { bom: true }) as string[][]) : [];
  return { status: res.status, headers: res.headers, bytes, text, rows };
}
