/**
 * Sequences (issue 16): steps saved as numbered versions and checked in words; clients enrolled
 * one by one, by a list, or by a form's answer, each as a run of the run engine; the email step
 * sent as every CRM email is (a message in a conversation of its own, its reply address on the
 * mail) with its merge fields filled and put on the timeline; the SMS step through the SMS
 * service (a loopback Twilio-compatible API); the task step making a task; a client leaving when
 * they reply over SMTP to the CRM's reply listener, text STOP to the SMS webhook, win an
 * opportunity, or are taken out by hand; a paused sequence holding its steps; and the figures
 * read from the runs. (The restart test is crm-sequences-crash.test.ts.)
 */
import nodemailer, { type SendMailOptions } from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SequenceStep } from "../../schemas/crm-sequence-steps";
import { freePort } from "../../scripts/pg-cluster";
import { queueClientEmail } from "../../server/modules/crm/client-email";
import { waitFor } from "./child-server";
import { contactForm } from "./forms-fixtures";
import { DRIVERS, startServer, type TestServer } from "./harness";
import { inboundSmsParams, type LoopbackTwilio, postTwilioWebhook, startLoopbackTwilio } from "./twilio";

type Rec = Record<string, unknown> & { id: string };
// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;

const email = (key: string, subject: string, body: string): SequenceStep => ({
  key,
  type: "email",
  subject,
  body,
});
const wait = (key: string, amount: number, unit: "minutes" | "hours" | "days" | "weeks"): SequenceStep => ({
  key,
  type: "wait",
  amount,
  unit,
});
const DOMAIN = "replies.example.test";
const PUBLIC_URL = "https://atelier.example.test";

const task = (key: string, title: string): SequenceStep => ({
  key,
  type: "task",
  title,
  dueInDays: 2,
  assignee: "owner",
});

describe.each(DRIVERS)("sequences on %s", (driver) => {
  let s: TestServer;
  let twilio: LoopbackTwilio;
  let inboundPort: number;
  let admin: string;
  let adminId: string;
  const call = <T = Any>(method: string, p: string, body?: unknown) =>
    s.api<T>(method, p, { token: admin, body });
  const db = () => s.database.db;

  async function sequence(name: string, steps: SequenceStep[]): Promise<Rec> {
    const created = await call("POST", "/crm/sequences", { name });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const saved = await call("PUT", `/crm/sequences/${created.body.id}/steps`, { steps, version: 1 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    return created.body;
  }
  async function client(name: string, extra: Record<string, unknown> = {}): Promise<Rec> {
    const slug = name.toLowerCase().replace(/\W+/g, ".");
    const created = await call("POST", "/crm/clients", {
      name,
      email: `${slug}@example.com`,
      consent_email: true,
      owner_id: adminId,
      ...extra,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  }
  const enrol = (sequenceId: string, clientIds: string[]) =>
    call("POST", `/crm/sequences/${sequenceId}/enrolments`, { clientIds });
  const mailsTo = (address: string) =>
    db()
      .selectFrom("mail_outbox")
      .select(["subject", "text_body"])
      .where("to_address", "=", address)
      .execute();
  /** The Reply-To of the latest mail to `address`. */
  const replyAddressOf = async (address: string) =>
    (
      await db()
        .selectFrom("mail_outbox")
        .select("reply_to")
        .where("to_address", "=", address)
        .orderBy("created_at", "desc")
        .executeTakeFirstOrThrow()
    ).reply_to as string;
  /** The client's mail program answers: over SMTP to the CRM's reply listener. */
  const reply = (mail: SendMailOptions) =>
    nodemailer
      .createTransport({ host: "127.0.0.1", port: inboundPort, secure: false, ignoreTLS: true })
      .sendMail(mail);
  /** The client texts our number: Twilio's signed inbound webhook. */
  const text = (from: string, body: string) =>
    postTwilioWebhook(
      `${s.baseUrl}/crm/hooks/sms/inbound`,
      `${PUBLIC_URL}/crm/hooks/sms/inbound`,
      twilio.authToken,
      inboundSmsParams(twilio.accountSid, from, twilio.from, body),
    );
  const enrolmentOf = async (sequenceId: string, clientId: string) =>
    ((await call("GET", `/crm/sequences/${sequenceId}/enrolments?pageSize=200`)).body.data as Any[]).find(
      (e) => e.clientId === clientId,
    );
  const timeline = async (clientId: string) =>
    (await call("GET", `/crm/clients/${clientId}/timeline?limit=100`)).body.data as Any[];
  /** The step a run waits on falls due now (as if its wait had passed). */
  async function fastForward(runId: string) {
    const now = new Date();
    await db()
      .updateTable("run_steps")
      .set({ due_at: now })
      .where("run_id", "=", runId)
      .where("status", "=", "scheduled")
      .execute();
    await db()
      .updateTable("jobs")
      .set({ run_at: now })
      .where("key", "like", `run:${runId}:%`)
      .where("state", "=", "queued")
      .execute();
  }
  const until = <T>(what: string, probe: () => Promise<T | undefined | false>) =>
    waitFor(what, probe, 20_000, 100);

  beforeAll(async () => {
    twilio = await startLoopbackTwilio();
    inboundPort = await freePort();
    s = await startServer(driver, {
      FORMS_RATE_LIMIT: "1000",
      ...twilio.env(),
      PUBLIC_URL,
      CRM_INBOUND_DOMAIN: DOMAIN,
      CRM_INBOUND_SMTP_PORT: String(inboundPort),
    });
    const signedIn = await s.signIn();
    admin = signedIn.accessToken;
    adminId = signedIn.user.userID;
  });
  afterAll(async () => {
    await s?.close();
    await twilio?.close();
  });

  it("enrols a client: the email goes out with its merge fields, on the timeline; the wait holds the next step", async () => {
    const seq = await sequence("Welcome", [
      email(
        "hello",
        "Welcome, {{client.first_name}}",
        "Hi {{client.first_name}} from {{client.company | your team}},\nglad you came.",
      ),
      wait("pause", 2, "days"),
      task("call", "Call {{client.name}}"),
    ]);
    const asha = await client("Asha Rao", { company: "Kite Labs" });
    const enrolled = await enrol(seq.id, [asha.id]);
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);
    expect(enrolled.body).toMatchObject({ alreadyActive: [], notFound: [] });
    expect(enrolled.body.enrolled).toEqual([{ clientId: asha.id, runId: expect.any(String) }]);

    const mails = await until("the first email", async () => {
      const m = await mailsTo("asha.rao@example.com");
      return m.length ? m : undefined;
    });
    expect(mails).toEqual([
      { subject: "Welcome, Asha", text_body: "Hi Asha from Kite Labs,\nglad you came." },
    ]);
    const entries = await until("the wait to be reached", async () => {
      const e = await enrolmentOf(seq.id, asha.id);
      return e?.step?.type === "task" ? e : undefined;
    });
    // After the wait, the task is next, due in two days (not run yet).
    expect(entries).toMatchObject({
      status: "active",
      held: false,
      version: 2,
      step: { index: 2, count: 3 },
    });
    const due = new Date(entries.nextAt).getTime() - Date.now();
    expect(due).toBeGreaterThan(47 * 3600_000);
    expect(due).toBeLessThan(49 * 3600_000);
    const kinds = (await timeline(asha.id)).map((e) => [e.kind, e.title]);
    expect(kinds).toContainEqual(["email_out", "Welcome, Asha"]);
    expect(kinds).toContainEqual(["sequence", "Enrolled in the sequence Welcome"]);

    // The wait passes: the task is made for the client's owner, and the run finishes.
    await fastForward(enrolled.body.enrolled[0].runId);
    const made = await until("the task", () =>
      db().selectFrom("crm_tasks").selectAll().where("client_id", "=", asha.id).executeTakeFirst(),
    );
    expect(made).toMatchObject({ title: "Call Asha Rao", assignee_id: adminId, done: false });
    await until("the end", async () => (await enrolmentOf(seq.id, asha.id))?.status === "finished");
    expect((await timeline(asha.id)).map((e) => e.title)).toContain("Finished the sequence Welcome");
    expect((await call("GET", `/crm/sequences/${seq.id}/stats`)).body).toMatchObject({
      enrolled: 1,
      active: 0,
      finished: 1,
    });
  });

  it("sends the email step as a CRM email in a conversation of its own; the client's reply over SMTP ends the enrolment", async () => {
    const seq = await sequence("Conversation", [
      email("hello", "Hello {{client.first_name}}", "Hi {{client.first_name}},\nhow are <you>?"),
      wait("gap", 2, "days"),
      email("again", "Following up", "Still there?"),
    ]);
    const lena = await client("Lena Park");
    const { runId } = (await enrol(seq.id, [lena.id])).body.enrolled[0];
    await until("the wait", async () => (await enrolmentOf(seq.id, lena.id))?.step?.index === 2);

    // A message of the client's, in a conversation, sent as the client's owner.
    const listed = (await call("GET", `/crm/messages?clientId=${lena.id}`)).body;
    expect(listed.total).toBe(1);
    const message = listed.data[0];
    expect(message).toMatchObject({
      channel: "email",
      direction: "out",
      subject: "Hello Lena",
      to: "lena.park@example.com",
      body_text: "Hi Lena,\nhow are <you>?",
      body: "<p>Hi Lena,<br>how are &lt;you&gt;?</p>",
      status: "stored",
      actor_id: adminId,
      thread_id: expect.any(String),
    });
    const thread = await db()
      .selectFrom("crm_email_threads")
      .selectAll()
      .where("id", "=", message.thread_id)
      .executeTakeFirstOrThrow();
    expect(thread).toMatchObject({ client_id: lena.id, subject: "Hello Lena", created_by: adminId });
    // The outbox mail carries the conversation's reply address and Message-ID.
    const mail = await db()
      .selectFrom("mail_outbox")
      .selectAll()
      .where("to_address", "=", "lena.park@example.com")
      .executeTakeFirstOrThrow();
    expect(mail).toMatchObject({
      subject: "Hello Lena",
      text_body: "Hi Lena,\nhow are <you>?",
      reply_to: `reply+${thread.token}@${DOMAIN}`,
      message_id: thread.message_id,
      from_name: "Admin User",
    });
    // One timeline entry: the message's, saying which sequence and step sent it.
    const sentEntries = (await timeline(lena.id)).filter((e) => e.kind === "email_out");
    expect(sentEntries).toEqual([
      expect.objectContaining({
        title: "Hello Lena",
        ref_id: message.id,
        data: expect.objectContaining({
          threadId: thread.id,
          to: "lena.park@example.com",
          sequenceId: seq.id,
          sequence: "Conversation",
          step: "Email: Hello {{client.first_name}}",
        }),
      }),
    ]);

    // Lena answers from her mail program: the reply is hers, and her enrolment has ended by the
    // time the listener accepted it (the same transaction).
    const answered = await reply({
      from: "Lena Park <lena.park@example.com>",
      to: mail.reply_to as string,
      subject: "Re: Hello Lena",
      inReplyTo: thread.message_id,
      text: "Fine, thanks! Call me on Monday.\n\nOn Mon, Admin User wrote:\n> Hi Lena,",
    });
    expect(answered.accepted).toEqual([mail.reply_to]);
    expect(await enrolmentOf(seq.id, lena.id)).toMatchObject({ status: "exited", exitReason: "replied" });
    const entries = await timeline(lena.id);
    expect(entries).toContainEqual(
      expect.objectContaining({
        kind: "email_in",
        body: "Fine, thanks! Call me on Monday.",
        data: expect.objectContaining({ threadId: thread.id }),
      }),
    );
    expect(entries.map((e) => e.title)).toContain("Left the sequence Conversation: Replied");
    // The owner who "sent" it is told, as for any CRM email.
    const told = (await call("GET", "/api/notifications")).body.data.filter(
      (n: Any) => n.kind === "crm.reply" && n.data?.clientId === lena.id,
    );
    expect(told).toHaveLength(1);
    // The follow-up's job went with the enrolment: no second mail however much time passes.
    const pending = await db()
      .selectFrom("jobs")
      .select("id")
      .where("key", "like", `run:${runId}:%`)
      .where("state", "=", "queued")
      .execute();
    expect(pending).toEqual([]);
    expect(await mailsTo("lena.park@example.com")).toHaveLength(1);
  });

  it("sends the SMS step through the SMS service; a STOP texted back ends the enrolment", async () => {
    const seq = await sequence("Texts", [
      { key: "text", type: "sms", body: "Hi {{client.first_name}}, a quick note from {{user.first_name}}" },
      wait("gap", 1, "days"),
      email("later", "Later", "Later on"),
    ]);
    const tara = await client("Tara Bose", { phone: "+919877700002", consent_sms: true });
    const { runId } = (await enrol(seq.id, [tara.id])).body.enrolled[0];
    const taken = await until("the SMS at the provider", async () =>
      twilio.messages.find((m) => m.to === "+919877700002"),
    );
    expect(taken.body).toBe("Hi Tara, a quick note from Admin");
    await until("the wait", async () => (await enrolmentOf(seq.id, tara.id))?.step?.index === 2);
    // Its timeline entry follows the SMS's status, and keeps saying which sequence sent it.
    const sentEntry = await until("the SMS sent", async () =>
      (await timeline(tara.id)).find((e) => e.kind === "sms_out" && e.title === "SMS sent to +919877700002"),
    );
    expect(sentEntry.data).toMatchObject({ sequenceId: seq.id, sequence: "Texts", status: "sent" });
    const row = await db()
      .selectFrom("crm_messages")
      .select(["id", "actor_id", "status"])
      .where("client_id", "=", tara.id)
      .where("channel", "=", "sms")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ id: sentEntry.ref_id, actor_id: adminId });

    const stop = await text("+919877700002", "Stop");
    expect(stop.status).toBe(200);
    expect(await enrolmentOf(seq.id, tara.id)).toMatchObject({ status: "exited", exitReason: "opted_out" });
    expect((await timeline(tara.id)).map((e) => e.title)).toContain("Left the sequence Texts: Opted out");
    const later = await db()
      .selectFrom("run_steps")
      .select("status")
      .where("run_id", "=", runId)
      .where("step_key", "=", "later")
      .executeTakeFirstOrThrow();
    expect(later.status).toBe("skipped");
    expect(await mailsTo("tara.bose@example.com")).toEqual([]);
  });

  it("never sends twice under one step key, and sends without a user as MAIL_FROM", async () => {
    // Under the run engine's own guarantee (a committed step never runs again), the step's key
    // guards the send: the timeline entry holding it stops a second mail.
    const c = await client("Guard Case");
    const send = () =>
      db()
        .transaction()
        .execute((trx) =>
          queueClientEmail(s.ctx, trx, {
            client: { id: c.id, email: "guard.case@example.com" },
            sender: null,
            subject: "Once",
            text: "Only once",
            dedupeKey: `sequence:guard:${c.id}`,
          }),
        );
    const first = await send();
    expect(first?.replyTo).toMatch(new RegExp(`^reply\\+[a-z0-9]{32}@${DOMAIN.replaceAll(".", "\\.")}$`));
    expect(await send()).toBeNull();
    expect(await mailsTo("guard.case@example.com")).toHaveLength(1);
    const [message] = (await call("GET", `/crm/messages?clientId=${c.id}`)).body.data;
    expect(message).toMatchObject({ id: first?.id, actor_id: null, thread_id: first?.threadId });
  });

  it("skips a client already active in the sequence, and says which ids are no client", async () => {
    const seq = await sequence("Twice", [wait("w", 1, "days"), email("e", "Later", "Later on")]);
    const ravi = await client("Ravi Iyer");
    const missing = "00000000-0000-4000-8000-000000000000";
    const first = await enrol(seq.id, [ravi.id, ravi.id, missing]);
    expect(first.body.enrolled).toHaveLength(1);
    expect(first.body.notFound).toEqual([missing]);
    const again = await enrol(seq.id, [ravi.id]);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ enrolled: [], alreadyActive: [ravi.id], notFound: [] });
    const runs = await db().selectFrom("runs").select("id").where("owner_key", "=", seq.id).execute();
    expect(runs).toHaveLength(1);
  });

  it("refuses bad steps and bad enrolments in words, changing nothing", async () => {
    const seq = await sequence("Checked", [email("a", "Hi", "Hello")]);
    const bad = await call("PUT", `/crm/sequences/${seq.id}/steps`, {
      version: 2,
      steps: [
        { key: "a", type: "email", subject: "", body: "Hi {{client.nmae}}" },
        { key: "b", type: "task", title: "Call", dueInDays: 1, assignee: "user" },
        { key: "b", type: "wait", amount: 3, unit: "days" },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual(
      expect.arrayContaining([
        { field: "steps.0.subject", message: "Step 1 (Email): Subject is required" },
        {
          field: "steps.0.body",
          message: "Step 1 (Email): Message has an unknown merge field: {{client.nmae}}",
        },
        { field: "steps.1.assigneeId", message: "Step 2 (Task): choose the user the task is for" },
        { field: "steps.2.key", message: "Step 3 (Wait): another step has the same key" },
        {
          field: "steps.2.type",
          message: "Step 3 (Wait): a wait at the end does nothing: add a step after it, or remove it",
        },
      ]),
    );
    const schemaBad = await call("PUT", `/crm/sequences/${seq.id}/steps`, {
      version: 2,
      steps: [{ key: "A b", type: "fax" }],
    });
    expect(schemaBad.status).toBe(400);
    expect(schemaBad.body.details.map((d: Any) => d.field)).toEqual(
      expect.arrayContaining(["steps.0.key", "steps.0.type"]),
    );
    const stale = await call("PUT", `/crm/sequences/${seq.id}/steps`, { version: 1, steps: [] });
    expect(stale.status).toBe(409);
    expect((await call("GET", `/crm/sequences/${seq.id}/steps`)).body).toEqual({
      version: 2,
      steps: [{ key: "a", type: "email", subject: "Hi", body: "Hello" }],
    });

    expect((await enrol(seq.id, [])).status).toBe(400);
    const notUuid = await enrol(seq.id, ["nope"]);
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.details[0].field).toBe("clientIds.0");
    expect((await enrol("00000000-0000-4000-8000-000000000000", [seq.id])).status).toBe(404);
    const empty = (await call("POST", "/crm/sequences", { name: "Empty" })).body;
    const c = await client("Nobody Enrolled");
    const noSteps = await enrol(empty.id, [c.id]);
    expect(noSteps.status).toBe(409);
    expect(noSteps.body.message).toBe("This sequence has no steps yet: add steps before enrolling clients");
    expect((await call("GET", `/crm/sequences/${seq.id}/enrolments?status=bogus`)).status).toBe(400);
    expect((await call("GET", `/crm/sequences/${seq.id}/enrolments?pageSize=0`)).status).toBe(400);
    expect(
      (await call("DELETE", `/crm/sequences/${seq.id}/enrolments/00000000-0000-4000-8000-000000000000`))
        .status,
    ).toBe(404);
    expect(
      await db().selectFrom("runs").select("id").where("owner_key", "in", [seq.id, empty.id]).execute(),
    ).toEqual([]);
  });

  it("ends a client's sequence on a reply, on STOP, on a won opportunity, and by hand; the figures count them", async () => {
    const seq = await sequence("Nurture", [
      email("one", "First", "First note"),
      wait("gap", 3, "days"),
      email("two", "Second", "Second note"),
    ]);
    const [replier, stopper, winner, stopped, stays] = await Promise.all(
      ["Reply Person", "Stop Person", "Win Person", "Hand Person", "Stay Person"].map((n) =>
        client(n, n === "Stop Person" ? { phone: "+919877700001", consent_sms: true } : {}),
      ),
    );
    const all = [replier, stopper, winner, stopped, stays];
    const enrolled = await enrol(
      seq.id,
      all.map((c) => c.id),
    );
    const runOf = new Map<string, string>(enrolled.body.enrolled.map((e: Any) => [e.clientId, e.runId]));
    await until("every first email", async () => {
      const rows = await db()
        .selectFrom("run_steps")
        .select("run_id")
        .where("step_key", "=", "gap")
        .where("status", "=", "done")
        .where("run_id", "in", [...runOf.values()])
        .execute();
      return rows.length === all.length;
    });

    // One answers the first email (to its reply address), one texts STOP: each ends the
    // enrolment in the transaction storing it, so it has ended once the listener said 250 and
    // the webhook answered.
    const sent = await reply({
      from: "Reply Person <reply.person@example.com>",
      to: await replyAddressOf("reply.person@example.com"),
      subject: "Re: First",
      text: "Not now, thanks.",
    });
    expect(sent.accepted).toHaveLength(1);
    expect((await text("+919877700001", "STOP")).status).toBe(200);
    // An opportunity of the client is won on the board.
    const opportunity = await call("POST", "/crm/opportunities", {
      title: "Big deal",
      client_id: winner.id,
      value: 1000,
      stage: "new",
    });
    expect(opportunity.status, JSON.stringify(opportunity.body)).toBe(201);
    expect((await call("PATCH", `/crm/opportunities/${opportunity.body.id}`, { status: "won" })).status).toBe(
      200,
    );
    // Someone takes a client out by hand.
    expect(
      (await call("DELETE", `/crm/sequences/${seq.id}/enrolments/${runOf.get(stopped.id)}`)).status,
    ).toBe(204);
    expect(
      (await call("DELETE", `/crm/sequences/${seq.id}/enrolments/${runOf.get(stopped.id)}`)).status,
    ).toBe(409);

    expect(await enrolmentOf(seq.id, replier.id)).toMatchObject({
      status: "exited",
      exitReason: "replied",
      step: { index: 2 },
    });
    expect(await enrolmentOf(seq.id, stopper.id)).toMatchObject({
      status: "exited",
      exitReason: "opted_out",
    });
    expect(await enrolmentOf(seq.id, winner.id)).toMatchObject({ status: "exited", exitReason: "won" });
    expect(await enrolmentOf(seq.id, stopped.id)).toMatchObject({ status: "stopped", exitReason: null });
    expect(await enrolmentOf(seq.id, stays.id)).toMatchObject({ status: "active" });
    expect((await timeline(replier.id)).map((e) => e.title)).toContain("Left the sequence Nurture: Replied");
    expect((await timeline(winner.id)).map((e) => e.title)).toContain(
      "Left the sequence Nurture: Opportunity won",
    );
    // Their second step's job is gone: time passing sends only the one who stayed their second mail.
    for (const runId of runOf.values()) await fastForward(runId);
    await until("the second email", async () => (await mailsTo("stay.person@example.com")).length === 2);
    for (const c of [replier, stopper, winner, stopped])
      expect(
        await mailsTo(`${String(c.name).toLowerCase().replace(" ", ".")}@example.com`),
        String(c.name),
      ).toHaveLength(1);
    expect((await call("GET", `/crm/sequences/${seq.id}/stats`)).body).toEqual({
      enrolled: 5,
      active: 0,
      held: 0,
      finished: 1,
      replied: 1,
      optedOut: 1,
      won: 1,
      lost: 0,
      stopped: 1,
      failed: 0,
    });
    // The client's page lists only active enrolments: none left.
    expect((await call("GET", `/crm/clients/${stays.id}/sequences`)).body.data).toEqual([]);
  });

  it("leaves at the next step when a reply was stored without the hook", async () => {
    const seq = await sequence("Safety net", [
      email("a", "A", "a"),
      wait("w", 1, "hours"),
      email("b", "B", "b"),
    ]);
    const c = await client("Net Case");
    const { runId } = (await enrol(seq.id, [c.id])).body.enrolled[0];
    await until("the wait", async () => (await enrolmentOf(seq.id, c.id))?.step?.index === 2);
    await db()
      .insertInto("crm_timeline")
      .values({ client_id: c.id, kind: "email_in", title: "Re: A", data: JSON.stringify({}) })
      .execute();
    await fastForward(runId);
    await until("the exit", async () => (await enrolmentOf(seq.id, c.id))?.status === "exited");
    expect(await enrolmentOf(seq.id, c.id)).toMatchObject({ exitReason: "replied" });
    expect(await mailsTo("net.case@example.com")).toHaveLength(1);
  });

  it("holds each enrolment at its next step while the sequence is paused, and goes on when it is active", async () => {
    const seq = await sequence("Held", [email("a", "Held mail", "Sent once resumed")]);
    expect((await call("PATCH", `/crm/sequences/${seq.id}`, { status: "paused" })).status).toBe(200);
    const c = await client("Held Client");
    await enrol(seq.id, [c.id]);
    const held = await until("the hold", async () => {
      const e = await enrolmentOf(seq.id, c.id);
      return e?.held ? e : undefined;
    });
    expect(held).toMatchObject({ status: "active", nextAt: null, step: { index: 0 } });
    expect((await call("GET", `/crm/sequences/${seq.id}/stats`)).body).toMatchObject({ active: 1, held: 1 });
    expect(await mailsTo("held.client@example.com")).toEqual([]);
    expect((await call("PATCH", `/crm/sequences/${seq.id}`, { status: "active" })).status).toBe(200);
    await until("the mail", async () => (await mailsTo("held.client@example.com")).length === 1);
    await until("the end", async () => (await enrolmentOf(seq.id, c.id))?.status === "finished");
  });

  it("skips a step the client cannot receive and says why", async () => {
    const seq = await sequence("Channels", [
      { key: "text", type: "sms", body: "Hi {{client.first_name}}" },
      email("mail", "Hello", "Hello"),
    ]);
    const c = await client("No Phone", { consent_email: false });
    await enrol(seq.id, [c.id]);
    await until("the end", async () => (await enrolmentOf(seq.id, c.id))?.status === "finished");
    const titles = (await timeline(c.id)).map((e) => [e.title, e.body]);
    expect(titles).toContainEqual([
      "Channels: SMS: Hi {{client.first_name}} skipped",
      "No Phone has no phone number.",
    ]);
    expect(titles).toContainEqual([
      "Channels: Email: Hello skipped",
      'No Phone has not agreed to receive email ("Agrees to email" is off).',
    ]);
    expect(await mailsTo("no.phone@example.com")).toEqual([]);
  });

  it("keeps each enrolment on the version of the steps it started with", async () => {
    const seq = await sequence("Versions", [wait("w", 1, "days"), email("e", "Old text", "old")]);
    const before = await client("Before Change");
    const { runId } = (await enrol(seq.id, [before.id])).body.enrolled[0];
    const saved = await call("PUT", `/crm/sequences/${seq.id}/steps`, {
      version: 2,
      steps: [wait("w", 1, "days"), email("e", "New text", "new")],
    });
    expect(saved.body.version).toBe(3);
    const after = await client("After Change");
    const second = (await enrol(seq.id, [after.id])).body.enrolled[0].runId;
    expect((await enrolmentOf(seq.id, after.id)).version).toBe(3);
    // Both past their first step (the wait): the email is the step due in a day.
    for (const c of [before, after])
      await until("the wait", async () => (await enrolmentOf(seq.id, c.id))?.step?.index === 1);
    await fastForward(runId);
    await fastForward(second);
    await until("both mails", async () => {
      const a = await mailsTo("before.change@example.com");
      const b = await mailsTo("after.change@example.com");
      return a.length && b.length ? true : undefined;
    });
    expect((await mailsTo("before.change@example.com"))[0].subject).toBe("Old text");
    expect((await mailsTo("after.change@example.com"))[0].subject).toBe("New text");
  });

  it("enrols the client of a form's answer in the form's sequence", async () => {
    const seq = await sequence("From the form", [task("t", "Follow up {{client.name}}")]);
    const definition = contactForm();
    definition.settings.crm = { ...(definition.settings.crm as Any), sequenceId: seq.id };
    const form = (await call("POST", "/forms/forms", { name: "Leads", slug: "leads" })).body;
    const draft = (await call("GET", `/forms/forms/${form.id}/draft`)).body;
    expect(
      (await call("PUT", `/forms/forms/${form.id}/draft`, { definition, revision: draft.revision })).status,
    ).toBe(200);
    expect((await call("POST", `/forms/forms/${form.id}/publish`)).status).toBe(200);
    const answer = await s.api("POST", "/forms/f/leads/submissions", {
      body: {
        answers: { name: "Form Person", email: "form.person@example.com", plan: "Free" },
        tracking: { parameters: {}, referrer: "", landingPage: "" },
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const made = await until("the task", () =>
      db()
        .selectFrom("crm_tasks as t")
        .innerJoin("clients as c", "c.id", "t.client_id")
        .select(["t.title", "c.id"])
        .where("c.email", "=", "form.person@example.com")
        .executeTakeFirst(),
    );
    expect(made.title).toBe("Follow up Form Person");
    expect(await enrolmentOf(seq.id, made.id)).toMatchObject({ status: "finished" });
  });
});
