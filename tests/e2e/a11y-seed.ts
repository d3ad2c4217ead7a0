/**
 * Data for the new modules' screens in the accessibility and every-screen pass (issue 27), made
 * through the API in one setup: each screen then shows real rows, not only its empty state.
 * It fills in the sample records a11y.spec.ts made (one of each resource): the client gets an
 * address, a phone and consents; the form a definition, a published version and an answer with
 * UTM values; the automation a flow, a version and a finished run; the sequence steps and an
 * enrolment; a second proposal gets lines and is sent (its public page). Besides them: a CMS
 * component and a collection using every field kind, a published entry, a media item and a
 * navigation in the sample domain.
 */
import { expect } from "@playwright/test";
import sharp from "sharp";
import { type ApiSession, api } from "./helpers";

/** A record made to be looked at: its id and the label its screens show. */
export interface Seeded {
  id: string;
  label: string;
}

/** What the module screens are opened on. */
export interface ModuleData {
  /** The content type's API name and title, and its published entry. */
  type: { apiName: string; name: string };
  entry: Seeded;
  /** The form's public address. */
  formSlug: string;
  /** The automation's finished run. */
  runId: string;
  /** The sent proposal, and its public token. */
  proposal: Seeded & { token: string };
}

const png = () =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .png()
    .toBuffer();

const made = (records: Map<string, Seeded>, name: string): Seeded => {
  const record = records.get(name);
  expect(record, `a sample record of ${name}`).toBeTruthy();
  return record as Seeded;
};

/** A content type with one field of each kind, an entry of it published, a media item, a navigation. */
async function seedCms(admin: ApiSession, run: string, domain: Seeded, product: Seeded) {
  const upload = await admin.send("POST", "/cms/media", {
    multipart: { file: { name: `a11y-${run}.png`, mimeType: "image/png", buffer: await png() } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const media = (await upload.json()) as { id: string };
  const component = `a11y-cta-${run}`;
  await admin.expect("POST", "/cms/content-types", 201, {
    kind: "component",
    apiName: component,
    name: "Call to action",
    properties: {
      text: { "x-kind": "text", title: "Button text" },
      href: { "x-kind": "url", title: "Address" },
    },
  });
  const type = { apiName: `a11y-story-${run}`, name: "Story" };
  await admin.expect("POST", "/cms/content-types", 201, {
    kind: "collection",
    ...type,
    properties: {
      title: { "x-kind": "text", title: "Title" },
      slug: { "x-kind": "slug", title: "Slug", "x-slugFrom": "title" },
      summary: { "x-kind": "longtext", title: "Summary" },
      body: { "x-kind": "richtext", title: "Body" },
      reading_minutes: { "x-kind": "integer", title: "Reading minutes" },
      rating: { "x-kind": "decimal", title: "Rating" },
      featured: { "x-kind": "boolean", title: "Featured" },
      issue_date: { "x-kind": "date", title: "Issue date" },
      goes_live: { "x-kind": "datetime", title: "Goes live" },
      tone: { "x-kind": "enum", title: "Tone", enum: ["calm", "bold"], "x-enumLabels": ["Calm", "Bold"] },
      contact: { "x-kind": "email", title: "Contact" },
      link: { "x-kind": "url", title: "Link" },
      cover: { "x-kind": "media", title: "Cover" },
      product: { "x-kind": "relation", title: "Product", "x-target": "products" },
      cta: { "x-kind": "component", title: "Call to action", "x-component": component },
      blocks: { "x-kind": "dynamiczone", title: "Blocks", "x-components": [component] },
      extra: { "x-kind": "json", title: "Extra" },
    },
    required: ["title"],
  });
  const entry = await admin.expect<{ id: string }>("POST", `/cms/entries/${type.apiName}`, 201, {
    title: "Spring launch",
    slug: "spring-launch",
    summary: "New colours for spring.",
    body: "<p>New colours for <strong>spring</strong></p>",
    reading_minutes: 4,
    rating: 4.5,
    featured: true,
    issue_date: "2024-03-05",
    goes_live: "2024-03-05T10:00:00Z",
    tone: "calm",
    contact: "editor@example.com",
    link: "https://example.com/spring",
    cover: media.id,
    product: product.id,
    cta: { text: "Shop the range", href: "https://example.com/shop" },
    blocks: [{ __component: component, text: "Read more", href: "https://example.com/more" }],
    extra: { campaign: "spring" },
    domain_ids: [domain.id],
  });
  await admin.expect("POST", `/cms/entries/${type.apiName}/${entry.id}/publish`, 200, {});
  await admin.expect("POST", "/cms/navigations", 201, {
    domain_id: domain.id,
    name: `main-${run}`,
    title: "Main menu",
    items: [
      { id: "home", label: "Home", kind: "url", url: "/", children: [] },
      {
        id: "stories",
        label: "Stories",
        kind: "group",
        children: [
          { id: "spring", label: "Spring launch", kind: "entry", type: type.apiName, entryId: entry.id },
        ],
      },
    ],
  });
  return { type, entry: { id: entry.id, label: "Spring launch" } };
}

/** The sample form: a definition with UTM tracking, published, and one answer from a campaign. */
async function seedForm(admin: ApiSession, form: Seeded): Promise<string> {
  const draft = await admin.expect<{ revision: number; definition: { settings: Record<string, unknown> } }>(
    "GET",
    `/forms/forms/${form.id}/draft`,
    200,
  );
  const { slug } = await admin.expect<{ slug: string }>("GET", `/forms/forms/${form.id}`, 200);
  const definition = {
    fields: [
      { id: "name", kind: "text", label: "Full name", required: true, validation: { maxLength: 80 } },
      { id: "email", kind: "email", label: "Work email", required: true, validation: { maxLength: 320 } },
      { id: "plan", kind: "radio", label: "Plan", options: ["Free", "Pro"], validation: {} },
      { id: "seats", kind: "number", label: "Seats", validation: {} },
      { id: "start", kind: "date", label: "Start date", validation: {} },
    ],
    settings: {
      ...draft.definition.settings,
      utm: {
        trackingId: "T-1",
        Step: 1,
        defaultParameters: ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"].map(
          (name, i) => ({ id: i + 1, name, type: 0 }),
        ),
        customParameters: [{ id: 6, name: "gclid", type: 1, defaultValue: "" }],
      },
    },
  };
  await admin.expect("PUT", `/forms/forms/${form.id}/draft`, 200, { definition, revision: draft.revision });
  await admin.expect("POST", `/forms/forms/${form.id}/publish`, 200);
  const answer = await admin.send("POST", `/forms/f/${slug}/submissions`, {
    data: {
      answers: { name: "Ada Lovelace", email: "ada@example.com", plan: "Pro", seats: 3, start: "05-03-2024" },
      tracking: { parameters: { utm_source: "newsletter", utm_campaign: "spring", gclid: "abc123" } },
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return slug;
}

/** The sample automation: a manual flow (condition, then a tag), published and run (the run's id). */
async function seedRun(admin: ApiSession, automation: Seeded, client: Seeded): Promise<string> {
  const { revision } = await admin.expect<{ revision: number }>(
    "GET",
    `/api/automations/${automation.id}/draft`,
    200,
  );
  const definition = {
    trigger: { kind: "manual" },
    steps: [
      {
        id: "has-email",
        kind: "condition",
        condition: { operator: "and", value: [{ field: "email", operator: "nnull" }] },
        branches: {
          yes: [{ id: "tag-it", kind: "action", type: "add_tag", inputs: { tag: "welcomed" } }],
          no: [],
        },
      },
    ],
  };
  await admin.expect("PUT", `/api/automations/${automation.id}/draft`, 200, { definition, revision });
  await admin.expect("POST", `/api/automations/${automation.id}/publish`, 200);
  const run = await admin.expect<{ id: string }>("POST", `/api/automations/${automation.id}/run`, 201, {
    clientId: client.id,
  });
  return run.id;
}

/** The sample sequence: an email, a wait and a task, and the client enrolled. */
async function seedSequence(admin: ApiSession, sequence: Seeded, client: Seeded) {
  const { version } = await admin.expect<{ version: number }>(
    "GET",
    `/crm/sequences/${sequence.id}/steps`,
    200,
  );
  await admin.expect("PUT", `/crm/sequences/${sequence.id}/steps`, 200, {
    version,
    steps: [
      {
        key: "s-welcome",
        type: "email",
        subject: "Welcome, {{client.first_name}}",
        body: "Hello from Atelier.",
      },
      { key: "s-pause", type: "wait", amount: 2, unit: "days" },
      { key: "s-call", type: "task", title: "Call {{client.name}}", dueInDays: 1, assignee: "owner" },
    ],
  });
  await admin.expect("POST", `/crm/sequences/${sequence.id}/enrolments`, 200, { clientIds: [client.id] });
}

/** A second proposal for the sample client, with a line, sent: its public page. */
async function seedProposal(admin: ApiSession, client: Seeded, product: Seeded) {
  const proposal = await admin.expect<{ id: string }>("POST", "/api/proposals", 201, {
    title: "Spring fit-out",
    client_id: client.id,
    discount_option: 2,
    total_discount_kind: "percent",
    total_discount_value: 10,
  });
  await admin.expect("PUT", `/api/proposals/${proposal.id}/lines`, 200, {
    lines: [{ product_id: product.id, quantity: 3 }],
  });
  await admin.expect("POST", `/api/proposals/${proposal.id}/send`, 200, { mail: false });
  const sent = await admin.expect<{ share_token: string }>("GET", `/api/proposals/${proposal.id}`, 200);
  return { id: proposal.id, label: "Spring fit-out", token: sent.share_token };
}

/** Fills in the sample records and makes the rest of what the module screens show. */
export async function seedModules(admin: ApiSession, records: Map<string, Seeded>): Promise<ModuleData> {
  const run = Date.now().toString(36);
  const client = made(records, "clients");
  const product = made(records, "products");
  // An address, a phone and consents: the email, SMS and meeting dialogs open for this client.
  await admin.expect("PATCH", `/crm/clients/${client.id}`, 200, {
    email: `asha.${run}@example.com`,
    phone: "+919876543210",
    consent_email: true,
    consent_sms: true,
  });
  // One after another: the session's token is refreshed by one call at a time. The run goes
  // first and is waited for last, while the rest is made.
  const runId = await seedRun(admin, made(records, "automations"), client);
  const cms = await seedCms(admin, run, made(records, "domains"), product);
  const formSlug = await seedForm(admin, made(records, "forms"));
  await seedSequence(admin, made(records, "sequences"), client);
  const proposal = await seedProposal(admin, client, product);
  await expect
    .poll(
      async () =>
        (await admin.expect<{ status: string }>("GET", `/api/automation-runs/${runId}`, 200)).status,
      {
        message: "the sample run finishes",
        timeout: 30_000,
      },
    )
    .toBe("finished");
  return { ...cms, formSlug, runId, proposal };
}

/** The public proposal page's address. */
export const publicProposal = (token: string) => api(`/public/proposals/${token}`);
