/**
 * Any entity starts a flow and is a step's target (issue 30), over HTTP on each driver: a CMS
 * type's entry created starts a run; an engine resource's update starts one only when a chosen
 * field changed and the trigger's condition holds; a delete starts one with the record as it
 * was; create / update / find record steps on entities outside the CRM (a resource, a CMS type);
 * and an entity written only here, as its two files (schema and resource definition, served
 * the way the engine's tests serve one), gets triggers and steps with no other edit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceDefinition } from "../../resources/contract";
import { RESOURCES } from "../../resources/index";
import { MODULE_IDS } from "../../resources/modules";
import type { AutomationDefinition } from "../../schemas/automation";
import { auditProperties, type EntitySchema } from "../../schemas/contract";
import { createTableSql } from "../../server/resources/ddl";
import { waitFor } from "./child-server";
import { DRIVERS, startServer, type TestServer } from "./harness";

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;

// --- The new entity's two files: its schema and its resource definition. ---
const venueSchema = {
  $id: "venue",
  title: "Venue",
  type: "object",
  additionalProperties: false,
  "x-table": "test_venues",
  "x-label": "name",
  "x-defaultSort": "name",
  "x-list": ["name", "city", "capacity"],
  "x-searchable": ["name", "city"],
  "x-filterable": ["name", "city", "capacity"],
  required: ["name", "city"],
  properties: {
    ...auditProperties,
    name: { type: "string", title: "Name", minLength: 1, maxLength: 120 },
    city: { type: "string", title: "City", minLength: 1, maxLength: 80 },
    capacity: { type: ["integer", "null"], title: "Capacity", minimum: 1, maximum: 100000 },
  },
} as const satisfies EntitySchema;

const venues: ResourceDefinition = {
  name: "test-venues",
  schema: venueSchema,
  moduleID: MODULE_IDS.products,
  base: "api",
  label: "Venues",
  singular: "Venue",
  icon: "EnvironmentOutlined",
  parent: "products",
};
// --- end of the two files ---

describe.each(DRIVERS)("automations on any entity on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  const call = <T = Any>(method: string, p: string, body?: unknown) =>
    s.api<T>(method, p, { token: admin, body });
  const until = <T>(what: string, probe: () => Promise<T | undefined | false>) =>
    waitFor(what, probe, 20_000, 100);

  let serial = 0;
  async function automation(definition: AutomationDefinition): Promise<string> {
    const created = await call("POST", "/api/automations", { name: `Entity flow ${++serial}` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const saved = await call("PUT", `/api/automations/${id}/draft`, { definition });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const published = await call("POST", `/api/automations/${id}/publish`);
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    return id;
  }
  const runsOf = async (id: string) =>
    ((await call("GET", `/api/automations/${id}/runs`)).body as { data: Any[] }).data;
  const runOf = (runId: string) => call("GET", `/api/automation-runs/${runId}`).then((r) => r.body as Any);
  /** The automation's only run, once it finished (a failed one fails the test with its errors). */
  const finishedRun = async (id: string) => {
    const run = await until(`a finished run of ${id}`, async () => {
      const [found] = await runsOf(id);
      return found?.status === "finished" || found?.status === "failed" ? runOf(found.id) : undefined;
    });
    expect(run.status, JSON.stringify(run.steps.map((st: Any) => [st.key, st.error]))).toBe("finished");
    return run;
  };
  const venue = async (body: Record<string, unknown>) => {
    const made = await call("POST", "/api/test-venues", body);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body as Any;
  };
  // A step that leaves a trace (a category named after the run), so "no run" can be told apart.
  const mark = (name: string) =>
    ({
      id: "mark",
      kind: "action",
      type: "create_record",
      inputs: { resource: "categories", fields: { name } },
    }) as const;

  beforeAll(async () => {
    s = await startServer(
      driver,
      {},
      { resources: [...RESOURCES, venues], setupSql: createTableSql(venueSchema, (name) => name) },
    );
    admin = (await s.signIn()).accessToken;
    const article = await call("POST", "/cms/content-types", {
      kind: "collection",
      apiName: "article",
      name: "Article",
      required: ["title"],
      properties: {
        title: { "x-kind": "text", title: "Title", maxLength: 80 },
        rating: { "x-kind": "integer", title: "Rating", minimum: 1, maximum: 5 },
      },
    });
    expect(article.status, JSON.stringify(article.body)).toBe(201);
  });
  afterAll(() => s?.close());

  it("lists every resource and CMS type with its fields, the new entity among them", async () => {
    const res = await call<{ data: Any[] }>("GET", "/api/automations/entities");
    expect(res.status).toBe(200);
    const byName = new Map(res.body.data.map((e: Any) => [e.name, e]));
    expect(byName.get("test-venues")).toMatchObject({ label: "Venues", singular: "Venue" });
    expect(byName.get("test-venues").fields).toEqual(
      expect.arrayContaining([
        { key: "capacity", title: "Capacity", type: "integer", writable: true },
        expect.objectContaining({ key: "id", writable: false }),
      ]),
    );
    expect(byName.get("cms:article")).toMatchObject({ label: "Article entries" });
    expect(byName.get("cms:article").fields.map((f: Any) => f.key)).toEqual(
      expect.arrayContaining(["id", "title", "rating", "status"]),
    );
    expect(byName.has("products") && byName.has("clients")).toBe(true);
  });

  it("starts a run when a CMS type's entry is created, with its fields as the trigger's", async () => {
    const id = await automation({
      trigger: { kind: "record-created", resource: "cms:article" },
      steps: [mark("Made from {{trigger.title}}")],
    });
    const entry = await call("POST", "/cms/entries/article", { title: "Spring news", rating: 4 });
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
    const run = await finishedRun(id);
    expect(run.context.record).toMatchObject({ id: entry.body.id, title: "Spring news", rating: 4 });
    const made = await call("GET", `/api/categories?q=${encodeURIComponent("Made from Spring news")}`);
    expect(made.body.total).toBe(1);
  });

  it("starts a run on an update only when a chosen field changed and the condition holds", async () => {
    const paris = await venue({ name: "Salle Pleyel", city: "Paris", capacity: 1900 });
    const lyon = await venue({ name: "Halle Tony Garnier", city: "Lyon", capacity: 17000 });
    const id = await automation({
      trigger: {
        kind: "record-updated",
        resource: "test-venues",
        fields: ["capacity"],
        filter: [{ field: "city", operator: "eq", value: "Paris" }],
      },
      steps: [mark("Capacity {{trigger.previous.capacity}} to {{trigger.capacity}} at {{trigger.name}}")],
    });
    // Another field changed: no run. The chosen field in another city: no run.
    expect(
      (await call("PATCH", `/api/test-venues/${paris.id}`, { name: "Salle Pleyel (grande)" })).status,
    ).toBe(200);
    expect((await call("PATCH", `/api/test-venues/${lyon.id}`, { capacity: 16000 })).status).toBe(200);
    // The chosen field, where the condition holds: a run, with the record before and what changed.
    expect((await call("PATCH", `/api/test-venues/${paris.id}`, { capacity: 2000 })).status).toBe(200);
    const run = await finishedRun(id);
    expect(run.context.record).toMatchObject({
      id: paris.id,
      capacity: 2000,
      changedFields: ["capacity"],
      previous: { capacity: 1900 },
    });
    expect(await runsOf(id)).toHaveLength(1);
    const made = await call("GET", `/api/categories?q=${encodeURIComponent("Capacity 1900 to 2000")}`);
    expect(made.body.data.map((c: Any) => c.name)).toEqual([
      "Capacity 1900 to 2000 at Salle Pleyel (grande)",
    ]);
  });

  it("starts a run when a record is deleted, with the record as it was", async () => {
    const doomed = await venue({ name: "Le Bataclan", city: "Paris" });
    const id = await automation({
      trigger: { kind: "record-deleted", resource: "test-venues" },
      steps: [mark("Gone: {{trigger.name}}")],
    });
    expect((await call("DELETE", `/api/test-venues/${doomed.id}`)).status).toBe(204);
    const run = await finishedRun(id);
    expect(run.context.record).toMatchObject({ id: doomed.id, name: "Le Bataclan", city: "Paris" });
    expect((await call("GET", "/api/categories?q=Gone%3A%20Le%20Bataclan")).body.total).toBe(1);
  });

  it("creates, finds and updates records of entities outside the CRM", async () => {
    const category = (await call("POST", "/api/categories", { name: "Lyon venues" })).body as Any;
    const id = await automation({
      trigger: { kind: "record-created", resource: "test-venues" },
      steps: [
        {
          id: "find-category",
          kind: "action",
          type: "find_record",
          inputs: { resource: "categories", match: { name: "{{trigger.city}} venues" } },
        },
        {
          id: "describe",
          kind: "action",
          type: "update_record",
          inputs: {
            resource: "categories",
            recordId: "{{steps.find-category.id}}",
            fields: {
              description: "Latest: {{trigger.name}} (was {{steps.find-category.record.description}})",
            },
          },
        },
        {
          id: "announce",
          kind: "action",
          type: "create_record",
          inputs: { resource: "cms:article", fields: { title: "New venue: {{trigger.name}}", rating: "5" } },
        },
      ],
    });
    const made = await venue({ name: "Transbordeur", city: "Lyon", capacity: 1800 });
    const run = await finishedRun(id);
    const steps = new Map<string, Any>(run.steps.map((st: Any) => [st.key, st]));
    expect(steps.get("find-category").output).toMatchObject({
      found: true,
      id: category.id,
      record: { name: "Lyon venues" },
    });
    const after = (await call("GET", `/api/categories/${category.id}`)).body as Any;
    expect(after.description).toBe("Latest: Transbordeur (was )");
    const articles = (await call("GET", "/cms/entries/article?q=Transbordeur")).body as Any;
    expect(articles.data).toHaveLength(1);
    expect(articles.data[0]).toMatchObject({ title: "New venue: Transbordeur", rating: 5, status: "draft" });
    expect(made.id).toBeTruthy();
  });

  it("fails a step in words when the entity refuses the values, and finds nothing without failing", async () => {
    const id = await automation({
      trigger: { kind: "record-created", resource: "test-venues" },
      steps: [
        {
          id: "look",
          kind: "action",
          type: "find_record",
          inputs: { resource: "test-venues", match: { city: "Atlantis" } },
        },
        {
          id: "bad",
          kind: "action",
          type: "create_record",
          inputs: { resource: "test-venues", fields: { name: "Nowhere", city: "" } },
        },
      ],
    });
    await venue({ name: "Zénith", city: "Nantes" });
    const run = await until("the run failed", async () => {
      const [r] = await runsOf(id);
      return r?.status === "failed" ? runOf(r.id) : undefined;
    });
    const steps = new Map<string, Any>(run.steps.map((st: Any) => [st.key, st]));
    expect(steps.get("look").output).toMatchObject({ found: false, id: null, record: null });
    expect(steps.get("bad").error).toMatch(/^Venue not saved: /);
    expect(steps.get("bad").error).toMatch(/City/);
  });

  it("refuses to publish a flow on an entity that does not exist, on its node", async () => {
    const created = await call("POST", "/api/automations", { name: "On nothing" });
    const flowId = created.body.id as string;
    await call("PUT", `/api/automations/${flowId}/draft`, {
      definition: { trigger: { kind: "record-created", resource: "spaceships" }, steps: [mark("x")] },
    });
    const published = await call("POST", `/api/automations/${flowId}/publish`);
    expect(published.status).toBe(400);
    expect(published.body.details[0]).toMatchObject({ nodeId: "trigger" });
    expect(published.body.message).toMatch(/no kind of record "spaceships"/);
    const none = await call("PUT", `/api/automations/${flowId}/draft`, {
      definition: { trigger: { kind: "record-updated" }, steps: [mark("x")] },
    });
    expect(none.status).toBe(200);
    const noEntity = await call("POST", `/api/automations/${flowId}/publish`);
    expect(noEntity.status).toBe(400);
    expect(noEntity.body.details[0].message).toMatch(/choose the kind of record/);
  });
});
