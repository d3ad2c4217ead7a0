/**
 * CRM SMS (issue 16) against the real server and database: the SMS outbox by default; sending
 * through a loopback Twilio-compatible API (tests/server/twilio.ts checks the request's shape and
 * auth), with retries on 5xx/429 and a failure on 4xx; delivery reports; inbound SMS on the
 * timeline; signatures checked (403); STOP opts the client out and blocks sending, START opts
 * them back in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SmsMessage } from "../../schemas/sms";
import { waitFor } from "./child-server";
import { DRIVERS, startServer, type TestServer } from "./harness";
import {
  inboundSmsParams,
  type LoopbackTwilio,
  postTwilioWebhook,
  startLoopbackTwilio,
  statusCallbackParams,
} from "./twilio";

type Rec = Record<string, unknown> & { id: string };
type Entry = {
  kind: string;
  title: string;
  body: string | null;
  data: Record<string, unknown>;
  ref_id: string;
};
type Problem = { message: string; details?: Array<{ field: string; message: string }> };

const PUBLIC_URL = "https://atelier.example.test";

function api(s: TestServer, token: string) {
  return <T = Rec>(method: string, path: string, body?: unknown) => s.api<T>(method, path, { token, body });
}

async function makeClient(s: TestServer, token: string, fields: Record<string, unknown>): Promise<Rec> {
  const res = await api(s, token)("POST", "/crm/clients", { consent_sms: true, ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function timeline(s: TestServer, token: string, clientId: string): Promise<Entry[]> {
  const res = await api(s, token)<{ data: Entry[] }>("GET", `/crm/clients/${clientId}/timeline`);
  expect(res.status).toBe(200);
  return res.body.data;
}

const smsRows = (s: TestServer) =>
  s.database.db.selectFrom("crm_messages").selectAll().where("channel", "=", "sms").execute();

describe.each(DRIVERS)("CRM SMS outbox (no provider) on %s", (driver) => {
  let s: TestServer;
  let token: string;
  let call: ReturnType<typeof api>;

  beforeAll(async () => {
    s = await startServer(driver);
    token = (await s.signIn()).accessToken;
    call = api(s, token);
  });
  afterAll(() => s?.close());

  it("keeps the SMS in the outbox, fills merge fields, counts segments and logs it on the timeline", async () => {
    const client = await makeClient(s, token, {
      name: "Asha Rao",
      phone: "+919876543210",
      company: "Rao & Co",
    });
    const template = await call("POST", "/crm/templates", {
      name: "Reminder",
      channel: "sms",
      body: "Hi {{client.first_name}}, your order from {{client.company}} is ready. — {{user.first_name}}",
    });
    expect(template.status).toBe(201);
    const settings = await call("GET", "/crm/sms/settings");
    expect(settings.body).toEqual({ provider: "outbox", sends: false, from: null });

    const sent = await call<SmsMessage>("POST", "/crm/messages/sms", {
      clientId: client.id,
      templateId: template.body.id,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body).toMatchObject({
      direction: "out",
      clientId: client.id,
      clientName: "Asha Rao",
      to: "+919876543210",
      status: "stored",
      provider: "outbox",
      templateId: template.body.id,
      // The em dash is not in the GSM alphabet: the whole text goes as UCS-2.
      encoding: "UCS-2",
      segments: 1,
    });
    expect(sent.body.body).toMatch(/^Hi Asha, your order from Rao & Co is ready\. — \S+$/);

    const outbox = await call<{ data: SmsMessage[]; total: number }>("GET", "/crm/sms/outbox");
    expect(outbox.body.total).toBe(1);
    expect(outbox.body.data[0]).toMatchObject({ id: sent.body.id, status: "stored", clientName: "Asha Rao" });
    const one = await call<SmsMessage>("GET", `/crm/sms/outbox/${sent.body.id}`);
    expect(one.body.body).toBe(sent.body.body);

    const [entry] = await timeline(s, token, client.id);
    expect(entry).toMatchObject({
      kind: "sms_out",
      ref_id: sent.body.id,
      body: sent.body.body,
      data: { to: "+919876543210", status: "stored", segments: 1, encoding: "UCS-2" },
    });
    expect(entry.title).toContain("kept in the SMS outbox");
  });

  it("refuses a client without a phone or consent, bad templates and merge fields; nothing is stored", async () => {
    const before = (await smsRows(s)).length;
    const noPhone = await makeClient(s, token, { name: "No Phone" });
    const noConsent = await makeClient(s, token, {
      name: "Quiet One",
      phone: "+919800000001",
      consent_sms: false,
    });
    const ok = await makeClient(s, token, { name: "Ravi Kumar", phone: "+919800000002" });
    const emailTemplate = await call("POST", "/crm/templates", {
      name: "Welcome",
      channel: "email",
      body: "Hi",
    });

    const refusal = async (body: unknown, status: number, field: string, words: RegExp) => {
      const res = await call<Problem>("POST", "/crm/messages/sms", body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.details?.find((d) => d.field === field)?.message, JSON.stringify(res.body)).toMatch(
        words,
      );
    };
    await refusal({ clientId: noPhone.id, body: "Hello" }, 409, "clientId", /no phone number/);
    await refusal(
      { clientId: noConsent.id, body: "Hello" },
      409,
      "clientId",
      /has not agreed to receive SMS/,
    );
    await refusal(
      { clientId: ok.id, templateId: emailTemplate.body.id },
      400,
      "templateId",
      /email template/,
    );
    await refusal(
      { clientId: ok.id, body: "Hi {{clinet.name}}" },
      400,
      "body",
      /unknown merge field.*clinet\.name/,
    );
    await refusal({ clientId: ok.id, body: "   " }, 400, "body", /blank/);
    await refusal({ clientId: ok.id }, 400, "body", /required/);
    await refusal({ clientId: ok.id, body: "x".repeat(1601) }, 400, "body", /1,600 characters/);
    await refusal({ clientId: ok.id, body: "Hi", extra: 1 }, 400, "extra", /.+/);
    const missing = await call("POST", "/crm/messages/sms", {
      clientId: "00000000-0000-4000-8000-000000000000",
      body: "Hello",
    });
    expect(missing.status).toBe(404);
    expect((await smsRows(s)).length).toBe(before);
    expect(await timeline(s, token, ok.id)).toEqual([]);
  });

  it("answers 404 on the provider's webhooks: nothing can sign without a provider", async () => {
    const res = await postTwilioWebhook(`${s.baseUrl}/crm/hooks/sms/inbound`, "x", "y", { Body: "STOP" });
    expect(res.status).toBe(404);
  });

  it("needs the CRM module", async () => {
    const res = await s.api("GET", "/crm/sms/outbox");
    expect(res.status).toBe(401);
  });
});

describe.each(DRIVERS)("CRM SMS through a Twilio-compatible API on %s", (driver) => {
  let s: TestServer;
  let twilio: LoopbackTwilio;
  let token: string;
  let call: ReturnType<typeof api>;
  const hook = (kind: "inbound" | "status", params: Record<string, string>, signature?: string) =>
    postTwilioWebhook(
      `${s.baseUrl}/crm/hooks/sms/${kind}`,
      `${PUBLIC_URL}/crm/hooks/sms/${kind}`,
      twilio.authToken,
      params,
      { signature },
    );
  const message = (id: string) => call<SmsMessage>("GET", `/crm/sms/outbox/${id}`).then((r) => r.body);
  const settled = (id: string) =>
    waitFor(
      `SMS ${id} to leave the queue`,
      async () => {
        const m = await message(id);
        return m.status !== "queued" && m;
      },
      30_000,
    );

  beforeAll(async () => {
    twilio = await startLoopbackTwilio();
    s = await startServer(driver, { ...twilio.env(), PUBLIC_URL });
    token = (await s.signIn()).accessToken;
    call = api(s, token);
  });
  afterAll(async () => {
    await s?.close();
    await twilio?.close();
  });

  it("sends through the provider in Twilio's request shape and auth, then applies delivery reports", async () => {
    const client = await makeClient(s, token, { name: "Meera Shah", phone: "+919811111111" });
    const sent = await call<SmsMessage>("POST", "/crm/messages/sms", {
      clientId: client.id,
      body: "Hello {{client.first_name}} {}",
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body).toMatchObject({ status: "queued", provider: "twilio", encoding: "GSM-7", segments: 1 });
    const done = await settled(sent.body.id);
    expect(done).toMatchObject({ status: "sent", from: twilio.from, attempts: 1, error: null });

    const request = twilio.requests.at(-1);
    expect(request).toMatchObject({
      method: "POST",
      path: `/2010-04-01/Accounts/${twilio.accountSid}/Messages.json`,
      authorization: `Basic ${Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString("base64")}`,
      params: {
        To: "+919811111111",
        From: twilio.from,
        Body: "Hello Meera {}",
        StatusCallback: `${PUBLIC_URL}/crm/hooks/sms/status`,
      },
    });
    expect(request?.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    const taken = twilio.messages.at(-1)!;
    expect(done.providerId).toBe(taken.sid);
    expect((await timeline(s, token, client.id))[0]).toMatchObject({
      kind: "sms_out",
      title: "SMS sent to +919811111111",
      data: { status: "sent" },
    });

    const delivered = await hook("status", statusCallbackParams(twilio.accountSid, taken, "delivered"));
    expect(delivered.status).toBe(204);
    expect(await message(sent.body.id)).toMatchObject({ status: "delivered" });
    // A late "sent" report (callbacks may arrive out of order) does not undo the verdict.
    await hook("status", statusCallbackParams(twilio.accountSid, taken, "sent"));
    const after = await message(sent.body.id);
    expect(after.status).toBe("delivered");
    expect(after.delivered_at).not.toBeNull();
    expect((await timeline(s, token, client.id))[0]).toMatchObject({
      title: "SMS delivered to +919811111111",
      data: { status: "delivered" },
    });

    // Another one the carrier could not deliver: the reason in words on the timeline.
    const second = await call<SmsMessage>("POST", "/crm/messages/sms", {
      clientId: client.id,
      body: "Are you there?",
    });
    await settled(second.body.id);
    const report = statusCallbackParams(twilio.accountSid, twilio.messages.at(-1)!, "undelivered", "30003");
    expect((await hook("status", report)).status).toBe(204);
    expect(await message(second.body.id)).toMatchObject({ status: "undelivered", errorCode: "30003" });
    const [entry] = await timeline(s, token, client.id);
    expect(entry.title).toMatch(/^SMS not delivered to \+919811111111: The phone is switched off.*30003/);
  });

  it("refuses webhooks whose signature does not match (403) and changes nothing", async () => {
    const client = await makeClient(s, token, { name: "Forged", phone: "+919822222222" });
    const params = inboundSmsParams(twilio.accountSid, "+919822222222", twilio.from, "STOP");
    const forged = await hook("inbound", params, "bm90IGEgc2lnbmF0dXJl");
    expect(forged.status).toBe(403);
    // Signed for another address (the Host a forger would send) is no better.
    const elsewhere = await postTwilioWebhook(
      `${s.baseUrl}/crm/hooks/sms/inbound`,
      `${s.baseUrl}/crm/hooks/sms/inbound`,
      twilio.authToken,
      params,
    );
    expect(elsewhere.status).toBe(403);
    // A parameter changed after signing.
    const signedFor = await postTwilioWebhook(
      `${s.baseUrl}/crm/hooks/sms/inbound`,
      `${PUBLIC_URL}/crm/hooks/sms/inbound`,
      "wrong-token",
      params,
    );
    expect(signedFor.status).toBe(403);
    const status = await hook("status", { MessageSid: "SM1", MessageStatus: "delivered" }, "");
    expect(status.status).toBe(403);
    const row = await s.database.db
      .selectFrom("clients")
      .select("sms_opted_out_at")
      .where("id", "=", client.id)
      .executeTakeFirstOrThrow();
    expect(row.sms_opted_out_at).toBeNull();
    expect(await timeline(s, token, client.id)).toEqual([]);
  });

  it("puts an inbound SMS on the client's timeline, once, and answers empty TwiML", async () => {
    const client = await makeClient(s, token, { name: "Kiran Das", phone: "+919833333333" });
    const params = inboundSmsParams(
      twilio.accountSid,
      "+919833333333",
      twilio.from,
      "Yes, Thursday works for me",
    );
    const res = await hook("inbound", params);
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/xml/);
    expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    // Twilio may post the same message twice: it is stored once.
    expect((await hook("inbound", params)).status).toBe(200);
    const entries = await timeline(s, token, client.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: "sms_in",
      title: "SMS from +919833333333: Yes, Thursday works for me",
      body: "Yes, Thursday works for me",
      data: { from: "+919833333333" },
    });
    const stored = (await smsRows(s)).filter((r) => r.message_id === params.MessageSid);
    expect(stored).toMatchObject([{ direction: "in", status: "received", client_id: client.id }]);
    // One table of messages: the client's SMS list beside their emails.
    const listed = await call<{ data: Rec[] }>("GET", `/crm/messages?clientId=${client.id}`);
    expect(listed.body.data).toMatchObject([
      { channel: "sms", direction: "in", status: "received", body: "Yes, Thursday works for me" },
    ]);

    // From a number no client has: answered, not stored.
    const stranger = inboundSmsParams(twilio.accountSid, "+919899999999", twilio.from, "Who is this?");
    expect((await hook("inbound", stranger)).status).toBe(200);
    expect((await smsRows(s)).some((r) => r.message_id === stranger.MessageSid)).toBe(false);
  });

  it("answers a callback the provider sends again, after it was handled or at once, as the first and does nothing", async () => {
    // From a number no client has yet: answered, dropped, and recorded as handled.
    const early = inboundSmsParams(twilio.accountSid, "+919866666666", twilio.from, "Is the shop open?");
    const first = await hook("inbound", early);
    expect(first).toMatchObject({ status: 200, replayed: false });
    const client = await makeClient(s, token, { name: "Late Sender", phone: "+919866666666" });
    // Twilio retries it hours later, when the number is a client's: the same answer, nothing stored.
    const replay = await hook("inbound", early);
    expect(replay).toMatchObject({ status: 200, body: first.body, replayed: true });
    expect(replay.contentType).toMatch(/^text\/xml/);
    expect((await smsRows(s)).some((r) => r.message_id === early.MessageSid)).toBe(false);
    expect(await timeline(s, token, client.id)).toEqual([]);

    // Five deliveries of one message at once: one runs, all answer the empty TwiML, one entry.
    const burst = inboundSmsParams(twilio.accountSid, "+919866666666", twilio.from, "STOP");
    const answers = await Promise.all(Array.from({ length: 5 }, () => hook("inbound", burst)));
    expect(answers.map((a) => [a.status, a.body])).toEqual(Array(5).fill([200, first.body]));
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    expect(await timeline(s, token, client.id)).toHaveLength(1);
    expect((await smsRows(s)).filter((r) => r.message_id === burst.MessageSid)).toHaveLength(1);
    // Back in with START; the STOP's late retry does not opt them out again.
    await hook("inbound", inboundSmsParams(twilio.accountSid, "+919866666666", twilio.from, "START"));
    expect((await call("GET", `/crm/clients/${client.id}`)).body.sms_opted_out_at).toBeNull();
    expect(await hook("inbound", burst)).toMatchObject({ status: 200, replayed: true });
    expect((await call("GET", `/crm/clients/${client.id}`)).body.sms_opted_out_at).toBeNull();
    expect(await timeline(s, token, client.id)).toHaveLength(2);

    // A delivery report sent again: 204 again, marked a replay.
    const sent = await call<SmsMessage>("POST", "/crm/messages/sms", { clientId: client.id, body: "Hello" });
    expect(sent.status).toBe(201);
    await settled(sent.body.id);
    const report = statusCallbackParams(twilio.accountSid, twilio.messages.at(-1)!, "delivered");
    expect(await hook("status", report)).toMatchObject({ status: 204, replayed: false });
    const reports = await Promise.all(Array.from({ length: 3 }, () => hook("status", report)));
    expect(reports.map((r) => [r.status, r.replayed])).toEqual(Array(3).fill([204, true]));
    expect(await message(sent.body.id)).toMatchObject({ status: "delivered" });
  });

  it("opts the client out on STOP, refuses to text them, and back in on START", async () => {
    const client = await makeClient(s, token, { name: "Opt Out", phone: "+919844444444" });
    const stop = await hook(
      "inbound",
      inboundSmsParams(twilio.accountSid, "+919844444444", twilio.from, " stop "),
    );
    expect(stop.status).toBe(200);
    const record = await call("GET", `/crm/clients/${client.id}`);
    expect(record.body.sms_opted_out_at).toEqual(expect.any(String));
    expect((await timeline(s, token, client.id))[0]).toMatchObject({
      kind: "sms_in",
      title: "Texted stop: opted out of SMS",
      data: { keyword: "opt_out" },
    });

    const sentBefore = twilio.requests.length;
    const refused = await call<Problem>("POST", "/crm/messages/sms", { clientId: client.id, body: "Sale!" });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/opted out of SMS/);
    expect(twilio.requests.length).toBe(sentBefore);

    await hook("inbound", inboundSmsParams(twilio.accountSid, "+919844444444", twilio.from, "START"));
    expect((await call("GET", `/crm/clients/${client.id}`)).body.sms_opted_out_at).toBeNull();
    expect((await timeline(s, token, client.id))[0].title).toBe("Texted START: opted back in to SMS");
    const again = await call<SmsMessage>("POST", "/crm/messages/sms", {
      clientId: client.id,
      body: "Welcome back",
    });
    expect(again.status).toBe(201);
    expect(await settled(again.body.id)).toMatchObject({ status: "sent" });
  });

  it("retries on 500 and 429, and fails at once on a 4xx with the provider's words", async () => {
    const client = await makeClient(s, token, { name: "Retry Me", phone: "+919855555555" });
    twilio.failNext(1, 500);
    twilio.failNext(1, 429);
    const before = twilio.requests.length;
    const sent = await call<SmsMessage>("POST", "/crm/messages/sms", {
      clientId: client.id,
      body: "Third time lucky",
    });
    const done = await settled(sent.body.id);
    expect(done).toMatchObject({ status: "sent", attempts: 3, error: null });
    expect(twilio.requests.length - before).toBe(3);

    // Twilio refuses a number that texted STOP to it (21610): no retry, its message kept.
    const blocked = await makeClient(s, token, { name: "Blocked", phone: "+919866666666" });
    twilio.unsubscribed.add("+919866666666");
    const start = twilio.requests.length;
    const refused = await call<SmsMessage>("POST", "/crm/messages/sms", { clientId: blocked.id, body: "Hi" });
    const failed = await settled(refused.body.id);
    expect(failed).toMatchObject({
      status: "failed",
      error: "Attempt to send to unsubscribed recipient",
      errorCode: "21610",
      attempts: 1,
    });
    expect(twilio.requests.length - start).toBe(1);
    expect((await timeline(s, token, blocked.id))[0].title).toBe(
      "SMS to +919866666666 failed: Attempt to send to unsubscribed recipient",
    );
  });
});
