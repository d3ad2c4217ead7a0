/**
 * What an admin is notified of (issue 27; docs/notifications.md "What is sent"), each caused
 * for real on PGlite and PostgreSQL: a form answered (to its creator), a scheduled publish done
 * and failed (to the scheduler), a store sync finished and failed (to its starter), a proposal
 * accepted (to the opportunity's owner and its maker), a task an automation assigns (to the
 * assignee). Each reaches the right person, with words and a link to the record, and never a
 * person without the kind's module; none carries a proposal's public link.
 */

import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODULE_IDS } from "../../resources/modules";
import type {
  NotificationList,
  NotificationMessage,
  NotificationPreferences,
  NotificationRecord,
} from "../../schemas/notifications";
import { waitFor } from "./child-server";
import { type FakeStore, sampleProducts, startFakeBigCommerce } from "./fake-bigcommerce";
import { contactForm } from "./forms-fixtures";
import { DRIVERS, signedInMember, startServer, type TestServer } from "./harness";
import { openSocket, Received } from "./received";

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;
type Person = { id: string; token: string };

const WAIT_MS = 30_000;
const { crm, forms, cms, store: storeModule, products, automation } = MODULE_IDS;

describe.each(DRIVERS)("notification kinds on %s", (driver) => {
  let s: TestServer;
  let fake: FakeStore;
  let admin: Person;
  /** Holds every module the events need: the one who acts. */
  let fay: Person;
  /** CRM only: never told about forms, the CMS or the store. */
  let nick: Person;
  const sockets: Socket[] = [];

  const call = (who: Person, method: string, path: string, body?: unknown) =>
    s.api<Any>(method, path, { token: who.token, body });
  async function ok(who: Person, method: string, path: string, body?: unknown, status = 200) {
    const res = await call(who, method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
    return res.body;
  }
  /** A person's notifications of one kind, through their own inbox. */
  const inbox = async (who: Person, kind: string) =>
    (
      await s.api<NotificationList>("GET", "/api/notifications?pageSize=100", { token: who.token })
    ).body.data.filter((n) => n.kind === kind);
  const arrives = (who: Person, kind: string, match: (n: NotificationRecord) => boolean) =>
    waitFor(`${kind} for ${who.id}`, async () => (await inbox(who, kind)).find(match), WAIT_MS);

  /** A stage of the CRM other than "won" (made when there is none). */
  async function openStage(): Promise<string> {
    const filter = encodeURIComponent(JSON.stringify([{ field: "list", operator: "eq", value: "stage" }]));
    const stages = (await ok(admin, "GET", `/crm/dropdowns?pageSize=100&filters=${filter}`)).data;
    const open = stages.find((d: Any) => d.value !== "won");
    if (open) return open.value;
    await ok(admin, "POST", "/crm/dropdowns", { list: "stage", value: "talks", label: "Talks" }, 201);
    return "talks";
  }

  beforeAll(async () => {
    fake = await startFakeBigCommerce();
    fake.products = sampleProducts(3);
    s = await startServer(driver, { BIGCOMMERCE_API_URL: fake.url, FORMS_RATE_LIMIT: "1000" });
    admin = { id: "", token: (await s.signIn()).accessToken };
    fay = await signedInMember(s, admin.token, [crm, forms, cms, storeModule, products, automation]);
    nick = await signedInMember(s, admin.token, [crm]);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await s?.close();
    await fake?.close();
  });

  it("lists the new kinds as mail choices to those holding their module only", async () => {
    const kinds = async (who: Person) =>
      (
        await s.api<NotificationPreferences>("GET", "/api/notifications/preferences", { token: who.token })
      ).body.kinds.map((k) => k.kind);
    expect(await kinds(fay)).toEqual(
      expect.arrayContaining([
        "forms.answer",
        "cms.schedule_done",
        "cms.schedule_failed",
        "store.sync",
        "store.proposal_answered",
      ]),
    );
    const nicks = await kinds(nick);
    expect(nicks).toContain("crm.assigned");
    expect(nicks.filter((k) => /^(forms|cms|store)\./.test(k))).toEqual([]);
  });

  it("tells a form's creator of each answer, with the answers in short and a link to the submissions", async () => {
    const form = await ok(fay, "POST", "/forms/forms", { name: "Contact us", slug: "contact-notify" }, 201);
    const { revision } = await ok(fay, "GET", `/forms/forms/${form.id}/draft`);
    await ok(fay, "PUT", `/forms/forms/${form.id}/draft`, { definition: contactForm(), revision });
    await ok(fay, "POST", `/forms/forms/${form.id}/publish`);
    // Pushed live by the batch's writer after its commit (no job: notify's push "caller").
    const live = new Received<NotificationMessage>(
      await openSocket(s.baseUrl, fay.token, sockets),
      "notification",
      WAIT_MS,
    );
    const sent = await s.api<Any>("POST", "/forms/f/contact-notify/submissions", {
      body: { answers: { name: "Asha Rao", email: "asha@example.com", plan: "Free" } },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const pushed = await live.until(
      (m) => m.type === "created" && m.notification.kind === "forms.answer",
      "pushed answer notice",
    );
    expect(pushed).toMatchObject({ notification: { title: 'New answer to "Contact us"', read_at: null } });
    const notice = await arrives(fay, "forms.answer", (n) => n.data.formId === form.id);
    expect(notice).toMatchObject({
      title: 'New answer to "Contact us"',
      body: "Name: Asha Rao · Email: asha@example.com · Plan: Free",
      link: `/forms/forms/show/${form.id}?tab=submissions`,
      moduleID: forms,
    });
    // Not the creator, and not without the module.
    expect(await inbox(admin, "forms.answer")).toEqual([]);
    expect(await inbox(nick, "forms.answer")).toEqual([]);
  });

  it("tells the Forms admins instead once the form's creator lost the module (the creator kept with the published form)", async () => {
    const owen = await signedInMember(s, admin.token, [forms]);
    const form = await ok(owen, "POST", "/forms/forms", { name: "Callback", slug: "callback-notify" }, 201);
    const { revision } = await ok(owen, "GET", `/forms/forms/${form.id}/draft`);
    await ok(owen, "PUT", `/forms/forms/${form.id}/draft`, { definition: contactForm(), revision });
    await ok(owen, "POST", `/forms/forms/${form.id}/publish`);
    const answer = async (name: string) => {
      const sent = await s.api<Any>("POST", "/forms/f/callback-notify/submissions", {
        body: { answers: { name, email: "callback@example.com", plan: "Free" } },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    };
    // The first answer reads the published form, its creator with it, and keeps it.
    await answer("Ravi Das");
    await arrives(owen, "forms.answer", (n) => n.data.formId === form.id);
    await ok(admin, "PATCH", `/api/users/${owen.id}`, { modules: [crm] });
    await answer("Meera Iyer");
    const told = await arrives(admin, "forms.answer", (n) => n.data.formId === form.id);
    expect(told.body).toContain("Meera Iyer");
  });

  it("tells the scheduler when a scheduled publish is done, and when one cannot be done and why", async () => {
    await ok(
      fay,
      "POST",
      "/cms/content-types",
      {
        kind: "collection",
        apiName: "notice",
        name: "Notice",
        properties: { title: { "x-kind": "text", title: "Title" } },
      },
      201,
    );
    const soon = await ok(fay, "POST", "/cms/entries/notice", { title: "Opening hours" }, 201);
    const broken = await ok(fay, "POST", "/cms/entries/notice", { title: "Broken one" }, 201);
    const soonAt = new Date(Date.now() + 1500).toISOString();
    await ok(fay, "POST", `/cms/entries/notice/${soon.id}/schedule`, { publishAt: soonAt });
    const done = await arrives(fay, "cms.schedule_done", (n) => n.data.entryId === soon.id);
    // The type then gains a required field the other entry lacks: at its time it cannot publish.
    await ok(fay, "PATCH", "/cms/content-types/notice", {
      properties: {
        title: { "x-kind": "text", title: "Title" },
        summary: { "x-kind": "text", title: "Summary" },
      },
      required: ["summary"],
    });
    const brokenAt = new Date(Date.now() + 1500).toISOString();
    await ok(fay, "POST", `/cms/entries/notice/${broken.id}/schedule`, { publishAt: brokenAt });
    const failed = await arrives(fay, "cms.schedule_failed", (n) => n.data.entryId === broken.id);
    expect(done).toMatchObject({
      title: '"Opening hours" was published as scheduled',
      body: "This Notice entry is live now.",
      link: `/cms/entries/notice/show/${soon.id}`,
    });
    expect(failed.title).toBe('"Broken one" could not be published as scheduled');
    expect(failed.body).toMatch(/Summary/);
    expect(failed.body).toMatch(/Open the entry to fix it, then publish it by hand\.$/);
    expect(failed.link).toBe(`/cms/entries/notice/show/${broken.id}`);
    // Not published, and no longer claiming a time that has passed.
    expect(await ok(fay, "GET", `/cms/entries/notice/${broken.id}`)).toMatchObject({
      status: "draft",
      publish_at: null,
    });
    expect(await inbox(nick, "cms.schedule_failed")).toEqual([]);
  });

  it("tells whoever started a store sync its report, and why when it failed", async () => {
    await ok(
      fay,
      "POST",
      "/api/store/connections",
      { name: "Main", storeHash: fake.hash, token: fake.token },
      201,
    );
    const first = await ok(fay, "POST", "/api/store/sync", {}, 202);
    const finished = await arrives(fay, "store.sync", (n) => n.data.syncId === first.id);
    expect(finished).toMatchObject({
      title: 'The sync of "Main" finished',
      link: `/store/connections?sync=${first.id}`,
    });
    expect(finished.body).toMatch(/^\d+ created, \d+ updated, \d+ conflicts?.*, \d+ skipped\.$/);
    // The store takes the token back: the next sync fails, and says so without the token.
    const token = fake.token;
    fake.token = "a-token-the-store-no-longer-knows";
    const second = await ok(fay, "POST", "/api/store/sync", {}, 202);
    const failed = await arrives(fay, "store.sync", (n) => n.data.syncId === second.id);
    expect(failed.title).toBe('The sync of "Main" failed');
    expect(failed.body).toMatch(/^The sync stopped: .+\. Done before it stopped: /);
    expect(failed.body).not.toContain(token);
    expect(await inbox(nick, "store.sync")).toEqual([]);
    expect(await inbox(admin, "store.sync")).toEqual([]);
  });

  it("tells the proposal's maker when the client accepts, not an opportunity owner without the store", async () => {
    const client = await ok(
      fay,
      "POST",
      "/crm/clients",
      { name: "Asha Rao", email: "asha.rao@example.com" },
      201,
    );
    const opportunity = await ok(
      fay,
      "POST",
      "/crm/opportunities",
      { title: "Big deal", client_id: client.id, owner_id: nick.id, value: 500, stage: await openStage() },
      201,
    );
    const category = await ok(fay, "POST", "/api/categories", { name: "Notify goods" }, 201);
    const product = await ok(
      fay,
      "POST",
      "/api/products",
      { sku_code: "NOTIFY-GOODS-1", name: "Goods", price: 19.99, currency: "INR", category_id: category.id },
      201,
    );
    const p = await ok(
      fay,
      "POST",
      "/api/proposals",
      { title: "Website", client_id: client.id, opportunity_id: opportunity.id },
      201,
    );
    await ok(fay, "PUT", `/api/proposals/${p.id}/lines`, {
      lines: [{ product_id: product.id, quantity: 2 }],
    });
    const sent = await ok(fay, "POST", `/api/proposals/${p.id}/send`, {});
    const token = sent.link.split("/").pop();
    const accepted = await fetch(`${s.baseUrl}/public/proposals/${token}/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(accepted.status).toBe(200);
    const notice = await arrives(fay, "store.proposal_answered", (n) => n.data.proposalId === p.id);
    expect(notice).toMatchObject({
      title: `Asha Rao accepted proposal ${p.number}: Website`,
      body: 'Total ₹39.98. The opportunity "Big deal" is won.',
      link: `/store/proposals/show/${p.id}`,
    });
    expect(JSON.stringify(notice)).not.toContain(token);
    expect(await inbox(nick, "store.proposal_answered")).toEqual([]);
  });

  it("tells the assignee of a task an automation made, which the resource's rules never saw", async () => {
    const flow = await ok(admin, "POST", "/api/automations", { name: "Call new clients" }, 201);
    await ok(admin, "PUT", `/api/automations/${flow.id}/draft`, {
      definition: {
        trigger: {
          kind: "client-created",
          filter: [{ field: "company", operator: "eq", value: "Assign Co" }],
        },
        steps: [
          {
            id: "task",
            kind: "action",
            type: "create_record",
            inputs: { resource: "task", fields: { title: "Call {{trigger.name}}", assignee_id: nick.id } },
          },
        ],
      },
    });
    await ok(admin, "POST", `/api/automations/${flow.id}/publish`);
    await ok(admin, "POST", "/crm/clients", { name: "Tara Iyer", company: "Assign Co" }, 201);
    const notice = await arrives(nick, "crm.assigned", (n) => n.title === "Task for you: Call Tara Iyer");
    expect(notice.link).toMatch(/^\/crm\/tasks\/show\/[0-9a-f-]{36}$/);
    expect(await inbox(fay, "crm.assigned")).toEqual([]);
  });
});
