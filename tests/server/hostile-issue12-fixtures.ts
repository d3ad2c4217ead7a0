/**
 * A throwaway entity for hostile-issue12.test.ts, registered only there: nullable fields,
 * every string format, an enum with labels, and an INTEGER first unique key (a key whose
 * cells are not text), plus a relation to sub-categories without `within`, so a label can
 * name two records.
 */
import type { ResourceDefinition } from "../../resources/contract";
import { MODULE_IDS } from "../../resources/modules";
import { auditProperties, type EntitySchema } from "../../schemas/contract";
import { createTableSql } from "../../server/resources/ddl";
import { csvServerOptions, type ImportAnswer } from "./csv-fixtures";
import type { StartOptions, TestServer } from "./harness";

export const ODDITY_NOTE_MAX = 5000;

export const oddSchema = {
  $id: "oddity",
  title: "Oddity",
  type: "object",
  additionalProperties: false,
  "x-table": "hostile_oddities",
  "x-label": "name",
  "x-defaultSort": "number",
  "x-list": ["number", "name"],
  "x-searchable": ["name", "note"],
  "x-filterable": ["number", "name", "day", "at", "clock", "level"],
  "x-unique": [["number"], ["name"]],
  required: ["number", "name"],
  properties: {
    ...auditProperties,
    number: { type: "integer", title: "Number", minimum: 1, maximum: 1_000_000 },
    name: { type: "string", title: "Name", minLength: 1, maxLength: 80 },
    note: { type: ["string", "null"], title: "Note", maxLength: ODDITY_NOTE_MAX },
    email: { type: ["string", "null"], format: "email", title: "E-mail", maxLength: 200 },
    site: { type: ["string", "null"], format: "uri", title: "Site", maxLength: 500 },
    token: { type: ["string", "null"], format: "uuid", title: "Token" },
    day: { type: ["string", "null"], format: "date", title: "Day" },
    at: { type: ["string", "null"], format: "date-time", title: "At" },
    clock: { type: ["string", "null"], format: "time", title: "Clock" },
    ratio: { type: ["number", "null"], title: "Ratio", minimum: -1000, maximum: 1000 },
    free: { type: ["number", "null"], title: "Free" },
    ok: { type: ["boolean", "null"], title: "OK" },
    level: {
      type: "string",
      title: "Level",
      enum: ["low", "high"],
      "x-enumLabels": ["Low", "High"],
      default: "low",
    },
    sub_category_id: {
      type: ["string", "null"],
      format: "uuid",
      title: "Sub-category",
      "x-relation": { resource: "sub-categories", labelField: "name" },
    },
  },
} as const satisfies EntitySchema;

export const oddities: ResourceDefinition = {
  name: "oddities",
  schema: oddSchema,
  moduleID: MODULE_IDS.products,
  base: "api",
  label: "Oddities",
  singular: "Oddity",
  icon: "BugOutlined",
};

const known = [...(csvServerOptions.resources ?? []), oddities];
const tableOf = (name: string) => {
  const r = known.find((d) => d.name === name);
  if (!r) throw new Error(name);
  return r.schema["x-table"];
};

/** The CSV tests' entities (gadgets, stamps) and the oddities, beside the real resources. */
export const hostileServerOptions: StartOptions = {
  ...csvServerOptions,
  resources: known,
  setupSql: `${csvServerOptions.setupSql}\n${createTableSql(oddSchema, tableOf)}`,
};

/** Posts raw bytes to `<path>/import` with any Content-Type; the answer's status and JSON. */
export async function sendImport(
  s: TestServer,
  token: string,
  path: string,
  body: BodyInit,
  type = "text/csv",
) {
  const res = await fetch(`${s.baseUrl}${path}/import`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": type },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as ImportAnswer["body"] };
}
