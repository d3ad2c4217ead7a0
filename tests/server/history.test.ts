/**
 * Every record's history (issue 31), over HTTP on each driver: a product's create, updates and
 * delete kept with who and the old and new values; a CSV import, an automation's step and a
 * restore recorded with what made them; restoring a field and the whole record, and the
 * restores refused with words per field; the module's permission and the admins' "what one
 * person changed"; an entity written only here, as its two files, with a secret field that is
 * never kept; and the retention prune.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceDefinition } from "../../resources/contract";
import { RESOURCES } from "../../resources/index";
import { MODULE_IDS } from "../../resources/modules";
import { auditProperties, type EntitySchema } from "../../schemas/contract";
import type { HistoryEntry, HistoryPage } from "../../schemas/history";
import { createTableSql } from "../../server/resources/ddl";
import { pruneHistory } from "../../server/resources/history/retention";
import type { AnyDb } from "../../server/resources/rules";
import { waitFor } from "./child-server";
import { importFile } from "./csv-fixtures";
import { DRIVERS, signedInMember, startServer, type TestServer } from "./harness";

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;

// --- The new entity's two files: its schema and its resource definition. ---
const lockerSchema = {
  $id: "locker",
  title: "Locker",
  type: "object",
  additionalProperties: false,
  "x-table": "test_lockers",
  "x-label": "name",
  "x-defaultSort": "name",
  "x-list": ["name", "floor"],
  "x-searchable": ["name"],
  "x-filterable": ["name", "floor"],
  "x-unique": [["name"]],
  required: ["name"],
  properties: {
    ...auditProperties,
    name: { type: "string", title: "Name", minLength: 1, maxLength: 80 },
    floor: { type: ["integer", "null"], title: "Floor", minimum: 0, maximum: 99 },
    door_password: { type: ["string", "null"], title: "Door password", maxLength: 40 },
  },
} as const satisfies EntitySchema;

const lockers: ResourceDefinition = {
  name: "test-lockers",
  schema: lockerSchema,
  moduleID: MODULE_IDS.products,
  base: "api",
  label: "Lockers",
  singular: "Locker",
  icon: "LockOutlined",
  parent: "products",
};
// --- end of the two files ---

describe.each(DRIVERS)("record history on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let adminId: string;
  let categoryId: string;
  let otherCategoryId: string;
  const call = <T = Any>(method: string, p: string, body?: unknown, token = admin) =>
    s.api<T>(method, p, { token, body });
  const historyOf = async (path: string, id: string) => {
    const res = await call<HistoryPage>("GET", `${path}/${id}/history`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const changesOf = (entry: HistoryEntry) =>
    Object.fromEntries(entry.changes.map((c) => [c.field, [c.from, c.to]]));
  let serial = 0;
  const product = async (extra: Record<string, unknown> = {}) => {
    const made = await call("POST", "/api/products", {
      sku_code: `HIST-${driver}-${++serial}`,
      name: `Mug ${serial}`,
      price: 12.5,
      category_id: categoryId,
      ...extra,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body as Any;
  };

  beforeAll(async () => {
    s = await startServer(
      driver,
      {},
      { resources: [...RESOURCES, lockers], setupSql: createTableSql(lockerSchema, (name) => name) },
    );
    const session = await s.signIn();
    admin = session.accessToken;
    adminId = session.user.userID;
    categoryId = ((await call("POST", "/api/categories", { name: "Mugs" })).body as Any).id;
    otherCategoryId = ((await call("POST", "/api/categories", { name: "Cups" })).body as Any).id;
  });
  afterAll(() => s?.close());

  it("keeps a create, each update and a delete, with who and only the changed fields' old and new values", async () => {
    const mug = await product();
    expect((await call("PATCH", `/api/products/${mug.id}`, { name: "Blue mug", price: 14 })).status).toBe(
      200,
    );
    // Nothing changes: no entry.
    expect((await call("PATCH", `/api/products/${mug.id}`, { name: "Blue mug" })).status).toBe(200);
    expect((await call("PATCH", `/api/products/${mug.id}`, { category_id: otherCategoryId })).status).toBe(
      200,
    );
    const entries = await historyOf("/api/products", mug.id);
    expect(entries.map((e) => e.action)).toEqual(["updated", "updated", "created"]);
    expect(entries.every((e) => e.actor.kind === "user" && e.actor.id === adminId)).toBe(true);
    expect(entries[0].actor.name).not.toBe("");
    expect(changesOf(entries[0])).toEqual({ category_id: [categoryId, otherCategoryId] });
    expect(changesOf(entries[1])).toEqual({ name: [mug.name, "Blue mug"], price: [12.5, 14] });
    // A create: every value set (none of the audit fields), old values null, in the schema's order.
    expect(entries[2].changes.slice(0, 3).map((c) => c.field)).toEqual(["sku_code", "name", "price"]);
    expect(changesOf(entries[2])).toMatchObject({ name: [null, mug.name], currency: [null, "INR"] });
    expect(changesOf(entries[2])).not.toHaveProperty("created_at");

    expect((await call("DELETE", `/api/products/${mug.id}`)).status).toBe(204);
    const after = await historyOf("/api/products", mug.id);
    expect(after[0]).toMatchObject({ action: "deleted", recordId: mug.id });
    expect(changesOf(after[0])).toMatchObject({ name: ["Blue mug", null], price: [14, null] });
    // A deleted record cannot be restored from its page.
    const refused = await call("POST", `/api/products/${mug.id}/history/${after[1].id}/restore`, {});
    expect(refused.status).toBe(400);
  });

  it("restores one field, then the whole record, each restore recorded; refuses what cannot be restored", async () => {
    const mug = await product({ description: "Stoneware" });
    await call("PATCH", `/api/products/${mug.id}`, { name: "Green mug", description: "Porcelain" });
    await call("PATCH", `/api/products/${mug.id}`, { price: 20 });
    let entries = await historyOf("/api/products", mug.id);
    const [priceChange, nameChange, created] = entries;

    const one = await call("POST", `/api/products/${mug.id}/history/${nameChange.id}/restore`, {
      field: "name",
    });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body).toMatchObject({ name: mug.name, description: "Porcelain", price: 20 });
    entries = await historyOf("/api/products", mug.id);
    expect(entries[0].actor).toMatchObject({ kind: "restore", id: adminId });
    expect(changesOf(entries[0])).toEqual({ name: ["Green mug", mug.name] });

    // The whole record as it was before the name change: every field changed since goes back.
    const whole = await call("POST", `/api/products/${mug.id}/history/${nameChange.id}/restore`, {});
    expect(whole.status, JSON.stringify(whole.body)).toBe(200);
    expect(whole.body).toMatchObject({ name: mug.name, description: "Stoneware", price: 12.5 });

    // Refused, in words per field: a field the entry did not change, a creation, a bad entry.
    const notChanged = await call("POST", `/api/products/${mug.id}/history/${priceChange.id}/restore`, {
      field: "name",
    });
    expect(notChanged.status).toBe(400);
    expect(notChanged.body.details).toEqual([
      { field: "name", message: "Name did not change in this entry" },
    ]);
    expect(
      (await call("POST", `/api/products/${mug.id}/history/${created.id}/restore`, { field: "name" })).status,
    ).toBe(400);
    expect((await call("POST", `/api/products/${mug.id}/history/99999999999/restore`, {})).status).toBe(404);
    expect((await call("POST", `/api/products/${mug.id}/history/abc/restore`, {})).status).toBe(400);
    expect((await call("GET", `/api/products/${mug.id}/history?pageSize=0`)).status).toBe(400);

    // A relation to a record deleted since: the update's own words on the field.
    const gone = ((await call("POST", "/api/categories", { name: "Gone soon" })).body as Any).id;
    await call("PATCH", `/api/products/${mug.id}`, { category_id: gone });
    await call("PATCH", `/api/products/${mug.id}`, { category_id: categoryId });
    expect((await call("DELETE", `/api/categories/${gone}`)).status).toBe(204);
    const [back] = await historyOf("/api/products", mug.id);
    const stale = await call("POST", `/api/products/${mug.id}/history/${back.id}/restore`, {
      field: "category_id",
    });
    expect(stale.status, JSON.stringify(stale.body)).toBe(400);
    expect(stale.body.details[0].field).toBe("category_id");
  });

  it("serves history to the module's members only, and 'what one person changed' to admins only", async () => {
    const mug = await product();
    const outsider = await signedInMember(s, admin, [MODULE_IDS.crm]);
    const member = await signedInMember(s, admin, [MODULE_IDS.products]);
    expect((await call("GET", `/api/products/${mug.id}/history`, undefined, outsider.token)).status).toBe(
      403,
    );
    expect((await call("POST", `/api/products/${mug.id}/history/1/restore`, {}, outsider.token)).status).toBe(
      403,
    );
    expect((await call("GET", `/api/products/${mug.id}/history`, undefined, member.token)).status).toBe(200);
    expect(
      (await call("PATCH", `/api/products/${mug.id}`, { name: "Member's mug" }, member.token)).status,
    ).toBe(200);

    expect((await call("GET", `/api/history?user=${member.id}`, undefined, member.token)).status).toBe(403);
    const theirs = await call<HistoryPage>("GET", `/api/history?user=${member.id}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.map((e) => [e.resource, e.recordId, e.actor.name])).toEqual([
      ["products", mug.id, "Mem Ber"],
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const inDay = await call<HistoryPage>("GET", `/api/history?user=${member.id}&from=${today}&to=${today}`);
    expect(inDay.body.total).toBe(1);
    const before = await call<HistoryPage>("GET", `/api/history?user=${member.id}&to=2020-01-01`);
    expect(before.body.total).toBe(0);
    const bad = await call("GET", `/api/history?user=${member.id}&from=yesterday&to=2020-01-01`);
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([
      { field: "from", message: "From must be a date (YYYY-MM-DD) or a date and time (ISO 8601)" },
    ]);
    expect((await call("GET", `/api/history?from=2020-01-01&to=2019-01-01&user=${member.id}`)).status).toBe(
      400,
    );
    expect((await call("GET", "/api/history")).status).toBe(400);
  });

  it("gives an entity added as its two files history, a CSV import's and an automation's, never a secret", async () => {
    const made = await call("POST", "/api/test-lockers", { name: "L1", floor: 1, door_password: "1234" });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await call("PATCH", `/api/test-lockers/${made.body.id}`, { door_password: "9876" });
    let entries = await historyOf("/api/test-lockers", made.body.id);
    // The password's change is no change history keeps.
    expect(entries.map((e) => e.action)).toEqual(["created"]);
    expect(changesOf(entries[0])).toEqual({ name: [null, "L1"], floor: [null, 1] });

    // A CSV import: one new record, one update, recorded as the importer's import.
    const imported = await importFile(s, admin, "/api/test-lockers", [
      "Name,Floor,Door password",
      "L1,3,",
      "L2,4,",
    ]);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    entries = await historyOf("/api/test-lockers", made.body.id);
    expect(entries[0]).toMatchObject({ action: "updated", actor: { kind: "import", id: adminId } });
    expect(changesOf(entries[0])).toEqual({ floor: [1, 3] });
    const l2 = (await call("GET", "/api/test-lockers?q=L2")).body.data[0];
    expect((await historyOf("/api/test-lockers", l2.id))[0]).toMatchObject({
      action: "created",
      actor: { kind: "import" },
    });

    // An automation's step, through the entity's service: recorded as the automation.
    const flow = await call("POST", "/api/automations", { name: "Lockers up a floor" });
    const definition = {
      trigger: { kind: "record-created", resource: "test-lockers" },
      steps: [
        {
          id: "up",
          kind: "action",
          type: "update_record",
          inputs: { resource: "test-lockers", recordId: "{{trigger.id}}", fields: { floor: "9" } },
        },
      ],
    };
    expect((await call("PUT", `/api/automations/${flow.body.id}/draft`, { definition })).status).toBe(200);
    expect((await call("POST", `/api/automations/${flow.body.id}/publish`)).status).toBe(200);
    const l3 = (await call("POST", "/api/test-lockers", { name: "L3", floor: 2 })).body as Any;
    const byFlow = await waitFor(
      "the automation's change in the history",
      async () => (await historyOf("/api/test-lockers", l3.id)).find((e) => e.actor.kind === "automation"),
      20_000,
      100,
    );
    expect(byFlow).toMatchObject({ actor: { id: flow.body.id, name: "Automation “Lockers up a floor”" } });
    expect(changesOf(byFlow)).toEqual({ floor: [2, 9] });
    await call("PATCH", `/api/automations/${flow.body.id}`, { status: "paused" });
  });

  it("shows a CMS entry's versions as its history, each with the fields it changed", async () => {
    const type = await call("POST", "/cms/content-types", {
      kind: "collection",
      apiName: "note",
      name: "Note",
      required: ["title"],
      properties: {
        title: { "x-kind": "text", title: "Title", maxLength: 80 },
        rating: { "x-kind": "integer", title: "Rating", minimum: 1, maximum: 5 },
      },
    });
    expect(type.status, JSON.stringify(type.body)).toBe(201);
    const entry = (await call("POST", "/cms/entries/note", { title: "First", rating: 2 })).body as Any;
    const saved = await call("PATCH", `/cms/entries/note/${entry.id}`, {
      title: "Second",
      revision: entry.revision,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const history = await call<HistoryPage>("GET", `/cms/entries/note/${entry.id}/history`);
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    expect(history.body.restorable).toBe(false);
    const [second, first] = history.body.data;
    expect(second).toMatchObject({
      action: "updated",
      version: { number: 2, kind: "save" },
      actor: { id: adminId },
    });
    expect(changesOf(second)).toEqual({ title: ["First", "Second"] });
    expect(first).toMatchObject({ action: "created", version: { number: 1 } });
    expect(changesOf(first)).toMatchObject({ title: [null, "First"], rating: [null, 2] });
    expect((await call("GET", `/cms/entries/note/${crypto.randomUUID()}/history`)).status).toBe(404);
  });

  it("prunes entries past the retention period, in batches", async () => {
    const db = s.database.db as unknown as AnyDb;
    const mug = await product();
    await sql`update record_history set at = now() - interval '400 days' where record_id = ${mug.id}`.execute(
      db,
    );
    const kept = await product();
    expect(await pruneHistory(db, 365, 1)).toBeGreaterThanOrEqual(1);
    expect(await historyOf("/api/products", mug.id)).toEqual([]);
    expect(await historyOf("/api/products", kept.id)).toHaveLength(1);
  });
});
