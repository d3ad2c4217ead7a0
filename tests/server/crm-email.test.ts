/**
 * Email from the CRM (issue 16) against the real server, database, an SMTP server on loopback
 * (what is sent) and the CRM's own reply listener (what comes back): merge fields filled and
 * escaped, the body sanitised, an asset attached, the per-thread Reply-To; the outbox, the
 * message list and the timeline; a reply sent over SMTP lands on the timeline once, in its
 * thread; unknown reply addresses refused at RCPT; bad input and missing consent refused with
 * nothing sent. Opens and clicks (issue 27): the sent HTML's signed pixel and links counted, each
 * first one once on the timeline; unsigned, altered and non-web addresses refused, never redirected.
 */
import net from "node:net";
import nodemailer, { type SendMailOptions } from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutboxMail } from "../../schemas/auth";
import { type CrmMessage, engagementText, type SendEmailResponse } from "../../schemas/crm-messages";
import type { ResourceChangeMessage, SubscribeAck } from "../../schemas/realtime";
import { clickSignature, PIXEL_GIF } from "../../server/mail/tracking";
import { DRIVERS, startServer, type TestServer } from "./harness";
import { startSmtp, type TestSmtp } from "./smtp";
import { testSocket } from "./sockets";

type Rec = Record<string, unknown> & { id: string };
type Failure = { message: string; details?: Array<{ field: string; message: string }> };
interface TimelineEntry {
  kind: string;
  title: string;
  body: string | null;
  data: Record<string, unknown>;
  ref_id: string | null;
}

const DOMAIN = "replies.example.test";
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

/** A port nobody listens on right now (the listener's port is configuration, not chosen). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each(DRIVERS)("CRM email on %s", (driver) => {
  let s: TestServer;
  let smtp: TestSmtp;
  let admin: string;
  let inboundPort: number;
  let client: Rec;
  const call = <T = Rec>(method: string, p: string, body?: unknown) =>
    s.api<T>(method, p, { token: admin, body });
  const send = (body: Record<string, unknown>) =>
    call<SendEmailResponse & Failure>("POST", "/crm/messages/email", body);
  const timeline = async (clientId: string) =>
    (await call<{ data: TimelineEntry[] }>("GET", `/crm/clients/${clientId}/timeline`)).body.data;
  const messages = async (clientId: string) =>
    (
      await call<{ data: CrmMessage[]; total: number }>(
        "GET",
        `/crm/messages?clientId=${clientId}&pageSize=50`,
      )
    ).body;
  const outboxCount = async () => (await call<{ total: number }>("GET", "/api/outbox?pageSize=1")).body.total;
  /** Mails a client's mail program sends to the reply listener. */
  const reply = (mail: SendMailOptions) =>
    nodemailer
      .createTransport({ host: "127.0.0.1", port: inboundPort, secure: false, ignoreTLS: true })
      .sendMail({ from: "Asha Rao <asha@example.com>", ...mail });

  const client_ = async (name: string, email: string) => {
    const created = await call("POST", "/crm/clients", { name, email, consent_email: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  };
  /** The HTML part of a message's mail, as the outbox holds it. */
  const htmlOf = async (messageId: string) =>
    (
      await s.database.db
        .selectFrom("crm_messages as m")
        .innerJoin("mail_outbox as o", "o.id", "m.outbox_id")
        .select("o.html_body")
        .where("m.id", "=", messageId)
        .executeTakeFirstOrThrow()
    ).html_body as string;
  /** The path and query of the address `pattern` finds in a mail's HTML. */
  const path = (html: string, pattern: RegExp) => (pattern.exec(html)?.[0] ?? "").replaceAll("&amp;", "&");
  const counts = (messageId: string) =>
    s.database.db
      .selectFrom("crm_messages")
      .select(["open_count", "click_count"])
      .where("id", "=", messageId)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    smtp = await startSmtp();
    inboundPort = await freePort();
    s = await startServer(driver, {
      SMTP_URL: smtp.url,
      MAIL_FROM: "Atelier <crm@example.test>",
      CRM_INBOUND_DOMAIN: DOMAIN,
      CRM_INBOUND_SMTP_PORT: String(inboundPort),
      CRM_INBOUND_MAX_MB: "1",
    });
    admin = (await s.signIn()).accessToken;
    const created = await call("POST", "/crm/clients", {
      name: "Asha Rao",
      email: "Asha@Example.com",
      company: "Rao & Sons <Ltd>",
      consent_email: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    client = created.body;
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  let sent: SendEmailResponse;

  it("sends an email: merge fields filled, body sanitised, asset attached, reply address per thread", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(PDF)]), "brochure.pdf");
    const uploaded = await fetch(`${s.baseUrl}/dam/assets`, {
      method: "POST",
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const asset = ((await uploaded.json()) as { data: Rec[] }).data[0];

    const before = await outboxCount();
    const res = await send({
      clientId: client.id,
      subject: "Hello {{client.first_name}}",
      body: '<p>Dear {{ client.name }} of {{client.company}},</p><p onclick="x()">From {{user.name}}</p><script>alert(1)</script>',
      cc: ["boss@example.com"],
      assetIds: [asset.id],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    sent = res.body;
    expect(sent.replyTo).toMatch(new RegExp(`^reply\\+[a-z0-9]{32}@${DOMAIN.replaceAll(".", "\\.")}$`));
    expect(sent.message).toMatchObject({
      channel: "email",
      direction: "out",
      client_id: client.id,
      subject: "Hello Asha",
      to: "asha@example.com",
      cc: ["boss@example.com"],
      attachments: [
        { name: "brochure.pdf", contentType: "application/pdf", size: PDF.length, assetId: asset.id },
      ],
    });
    expect(sent.message.body).toBe(
      "<p>Dear Asha Rao of Rao &amp; Sons &lt;Ltd&gt;,</p><p>From Admin User</p>",
    );
    expect(sent.message.body_text).toBe("Dear Asha Rao of Rao & Sons <Ltd>,\n\nFrom Admin User");

    // The outbox holds it (with its reply address and file), and SMTP gets it with the file.
    expect(await outboxCount()).toBe(before + 1);
    const outbox = (await call<{ data: OutboxMail[] }>("GET", "/api/outbox?pageSize=1")).body.data[0];
    expect(outbox).toMatchObject({
      to: "asha@example.com",
      cc: ["boss@example.com"],
      replyTo: sent.replyTo,
      subject: "Hello Asha",
      attachments: ["brochure.pdf"],
    });
    await expect
      .poll(() => smtp.received.find((m) => m.includes("Subject: Hello Asha")), { timeout: 20_000 })
      .toBeTruthy();
    const raw = smtp.received.find((m) => m.includes("Subject: Hello Asha")) as string;
    expect(raw).toContain(`Reply-To: ${sent.replyTo}`);
    expect(raw).toMatch(/From: Admin User <crm@example\.test>/);
    expect(raw).toMatch(/Content-Disposition: attachment; filename=brochure\.pdf/);
    expect(raw).toContain(PDF.toString("base64").slice(0, 40));
    expect(raw).not.toContain("alert(1)");

    await expect.poll(async () => (await messages(client.id)).data[0]?.status).toBe("sent");
    const entries = await timeline(client.id);
    expect(entries[0]).toMatchObject({
      kind: "email_out",
      title: "Hello Asha",
      ref_id: sent.message.id,
      data: { to: "asha@example.com", cc: "boss@example.com", attachments: "brochure.pdf" },
    });
    expect(entries[0].body).toContain("Dear Asha Rao");
  });

  it("puts a reply received over SMTP on the timeline, once, in its thread, and answers within it", async () => {
    const replyMail = {
      to: sent.replyTo,
      subject: "Re: Hello Asha",
      messageId: "<reply-1@example.com>",
      inReplyTo: "<whatever@example.test>",
      text: "Yes please, send the price list.\n\nOn Mon, 1 Jun 2026 at 10:00, Admin User wrote:\n> Dear Asha Rao",
    };
    // An open client page hears of it live (the timeline's channel).
    const socket = testSocket(s.baseUrl, admin);
    const ack = (await socket.timeout(5000).emitWithAck("subscribe", "client-timeline")) as SubscribeAck;
    expect(ack).toMatchObject({ ok: true });
    const heard = new Promise<ResourceChangeMessage>((resolve) => socket.once("change", resolve));
    const accepted = await reply(replyMail);
    expect(await heard).toMatchObject({ resource: "client-timeline", type: "created", ids: [client.id] });
    socket.close();
    expect(accepted.accepted).toEqual([sent.replyTo]);
    // Accepted means stored: the listener answers 250 after the commit.
    const entries = await timeline(client.id);
    expect(entries[0]).toMatchObject({
      kind: "email_in",
      title: "Re: Hello Asha",
      body: "Yes please, send the price list.",
      data: { from: "Asha Rao <asha@example.com>", threadId: sent.message.thread_id },
    });

    // Its sender is told (once, whatever happens below).
    const told = async () =>
      (
        await call<{ data: Array<{ kind: string; title: string; link: string }> }>(
          "GET",
          "/api/notifications",
        )
      ).body.data.filter((n) => n.kind === "crm.reply");
    expect(await told()).toEqual([
      expect.objectContaining({
        title: "Asha Rao replied: Re: Hello Asha",
        link: `/crm/clients/show/${client.id}`,
      }),
    ]);

    // The same mail again (a retry, or a second instance): still one reply.
    await reply(replyMail);
    expect((await timeline(client.id)).filter((e) => e.kind === "email_in")).toHaveLength(1);
    expect(await told()).toHaveLength(1);
    const list = await messages(client.id);
    expect(list.total).toBe(2);
    expect(list.data[0]).toMatchObject({
      direction: "in",
      status: "received",
      thread_id: sent.message.thread_id,
      from: "asha@example.com",
      body_text: replyMail.text,
    });

    // An answer in the thread: the same reply address, threaded under the client's reply.
    const again = await send({
      clientId: client.id,
      threadId: sent.message.thread_id,
      subject: "Re: Hello Asha",
      body: "<p>Here it is.</p>",
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.replyTo).toBe(sent.replyTo);
    expect(again.body.message.thread_id).toBe(sent.message.thread_id);
    await expect
      .poll(() => smtp.received.find((m) => m.includes("Here it is.")), { timeout: 20_000 })
      .toBeTruthy();
    expect(smtp.received.find((m) => m.includes("Here it is."))).toContain(
      "In-Reply-To: <reply-1@example.com>",
    );
  });

  it("stores an automatic answer without counting it as a reply", async () => {
    await reply({
      to: sent.replyTo,
      subject: "Out of office",
      text: "I am away until Monday.",
      headers: { "Auto-Submitted": "auto-replied" },
    });
    expect((await timeline(client.id))[0]).toMatchObject({ kind: "email_in", data: { automatic: true } });
    const replies = await call<{ data: Array<{ kind: string }> }>("GET", "/api/notifications");
    expect(replies.body.data.filter((n) => n.kind === "crm.reply")).toHaveLength(1);
  });

  it("refuses unknown reply addresses and other domains at RCPT with 550, and oversized replies", async () => {
    const refused = async (to: string) => {
      const error = await reply({ to, subject: "x", text: "x" }).then(
        () => null,
        (e: { responseCode?: number }) => e,
      );
      return error?.responseCode;
    };
    expect(await refused(`reply+${"0".repeat(32)}@${DOMAIN}`)).toBe(550);
    expect(await refused(`reply+short@${DOMAIN}`)).toBe(550);
    expect(await refused(`someone@${DOMAIN}`)).toBe(550);
    expect(await refused(`${sent.replyTo.split("@")[0]}@elsewhere.example`)).toBe(550);
    const big = await reply({ to: sent.replyTo, subject: "big", text: "x".repeat(1_200_000) }).then(
      () => null,
      (e: { responseCode?: number }) => e.responseCode,
    );
    expect(big).toBe(552);
    expect((await timeline(client.id)).filter((e) => e.title === "big")).toEqual([]);
  });

  it("fills subject and body from a template, with custom fields, defined and filled", async () => {
    const field = await call("POST", "/crm/custom-fields", {
      entity: "clients",
      key: "plan",
      label: "Plan",
      type: "text",
    });
    expect(field.status, JSON.stringify(field.body)).toBe(201);
    const template = await call("POST", "/crm/templates", {
      name: "Offer",
      channel: "email",
      subject: "An offer for {{client.company}}",
      body: "<p>Hi {{client.first_name}} ({{client.phone | no phone}}), your plan: {{client.plan | none yet}}</p>",
    });
    expect(template.status, JSON.stringify(template.body)).toBe(201);
    // A defined field without a value: its fallback.
    const preview = await call("POST", "/crm/messages/email/preview", {
      clientId: client.id,
      templateId: template.body.id,
    });
    expect(preview.body).toEqual({
      subject: "An offer for Rao & Sons <Ltd>",
      html: "<p>Hi Asha (no phone), your plan: none yet</p>",
      text: "Hi Asha (no phone), your plan: none yet",
    });
    const patched = await call("PATCH", `/crm/clients/${client.id}`, { plan: "Gold <3" });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const res = await send({ clientId: client.id, templateId: template.body.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toMatchObject({
      subject: "An offer for Rao & Sons <Ltd>",
      body: "<p>Hi Asha (no phone), your plan: Gold &lt;3</p>",
      template_id: template.body.id,
    });
    expect(res.body.message.thread_id).not.toBe(sent.message.thread_id);
  });

  it("refuses bad input with a message per field, and sends nothing", async () => {
    const sms = await call("POST", "/crm/templates", { name: "Text", channel: "sms", body: "Hi" });
    const before = await outboxCount();
    const total = (await messages(client.id)).total;
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [{ clientId: client.id }, 400, "subject", "Subject is required"],
      [
        { clientId: client.id, subject: "Hi", body: "<p>{{client.nope}} {{clinet.name}}</p>" },
        400,
        "body",
        "Body has unknown merge fields: {{client.nope}}, {{clinet.name}}",
      ],
      [
        { clientId: client.id, subject: "Hi {{x}}", body: "<p>x</p>" },
        400,
        "subject",
        "Subject has an unknown merge field: {{x}}",
      ],
      [
        { clientId: client.id, subject: "Hi", body: "<script>x</script>" },
        400,
        "body",
        "Body must not be empty",
      ],
      [
        { clientId: client.id, subject: "Hi\nBcc: x@y.z", body: "<p>x</p>" },
        400,
        "subject",
        "Subject must be one line of text",
      ],
      [{ clientId: client.id, subject: "Hi", body: "<p>x</p>", cc: ["not an email"] }, 400, "cc.0", ""],
      [
        { clientId: client.id, subject: "Hi", body: "<p>x</p>", templateId: sms.body.id },
        400,
        "templateId",
        "This is an SMS template: choose an email template",
      ],
      [
        {
          clientId: client.id,
          subject: "Hi",
          body: "<p>x</p>",
          assetIds: ["00000000-0000-4000-8000-000000000000"],
        },
        400,
        "assetIds.0",
        "This file is no longer in the asset manager",
      ],
      [
        {
          clientId: client.id,
          subject: "Hi",
          body: "<p>x</p>",
          threadId: "00000000-0000-4000-8000-000000000000",
        },
        400,
        "threadId",
        "This conversation is not one with this client",
      ],
      [{ clientId: client.id, subject: "Hi", body: "<p>x</p>", extra: 1 }, 400, "", ""],
      [
        { clientId: "00000000-0000-4000-8000-000000000000", subject: "Hi", body: "<p>x</p>" },
        404,
        "",
        "Client not found",
      ],
    ];
    for (const [body, status, field, message] of cases) {
      const res = await send(body);
      expect(res.status, JSON.stringify({ body, answer: res.body })).toBe(status);
      if (field) expect(res.body.details?.map((d) => d.field)).toContain(field);
      if (message && status === 400 && field)
        expect(res.body.details?.find((d) => d.field === field)?.message).toBe(message);
      if (message && !field) expect(res.body.message).toBe(message);
    }
    expect(await outboxCount()).toBe(before);
    expect((await messages(client.id)).total).toBe(total);
  });

  it("refuses clients without an email address or consent (409), and sends nothing", async () => {
    const noConsent = (await call("POST", "/crm/clients", { name: "Ravi K", email: "ravi@example.com" }))
      .body;
    const noEmail = (await call("POST", "/crm/clients", { name: "Meera", consent_email: true })).body;
    const before = await outboxCount();
    const a = await send({ clientId: noConsent.id, subject: "Hi", body: "<p>x</p>" });
    expect(a.status).toBe(409);
    expect(a.body.message).toBe(
      'Ravi K has not agreed to receive email ("Agrees to email" is off on their record)',
    );
    const b = await send({ clientId: noEmail.id, subject: "Hi", body: "<p>x</p>" });
    expect(b.status).toBe(409);
    expect(b.body.message).toBe("Meera has no email address: add one to their record first");
    expect(await outboxCount()).toBe(before);
    expect(await timeline(noConsent.id)).toEqual([]);
  });

  it("lists messages only with a client, on the list contract", async () => {
    expect((await call("GET", "/crm/messages")).status).toBe(400);
    const inOnly = await call<{ data: CrmMessage[] }>(
      "GET",
      `/crm/messages?clientId=${client.id}&filters=${encodeURIComponent(JSON.stringify([{ field: "direction", operator: "eq", value: "in" }]))}`,
    );
    expect(inOnly.body.data.map((m) => m.subject)).toEqual(["Out of office", "Re: Hello Asha"]);
    expect((await call("GET", `/crm/messages/${sent.message.id}`)).body).toMatchObject({
      id: sent.message.id,
    });
  });

  it("takes a mail delivered again (by its Message-ID) once, after it was stored or at once, even if removed since", async () => {
    const inbound = async (messageId: string) =>
      s.database.db
        .selectFrom("crm_messages")
        .select("id")
        .where("channel", "=", "email")
        .where("message_id", "=", messageId)
        .execute();
    const mail = {
      to: sent.replyTo,
      subject: "Re: the order",
      messageId: "<again-1@example.com>",
      text: "Twice?",
    };
    expect((await reply(mail)).accepted).toEqual([sent.replyTo]);
    expect(await inbound("<again-1@example.com>")).toHaveLength(1);
    // Removed since (an admin's clean-up): the sender's late retry is accepted and stores nothing.
    await s.database.db
      .deleteFrom("crm_messages")
      .where("message_id", "=", "<again-1@example.com>")
      .execute();
    expect((await reply(mail)).accepted).toEqual([sent.replyTo]);
    expect(await inbound("<again-1@example.com>")).toEqual([]);

    // Four deliveries of one mail at once (two MX hosts, a retry): all accepted, one reply.
    const before = (await timeline(client.id)).filter((e) => e.kind === "email_in").length;
    const at = { ...mail, messageId: "<again-2@example.com>", text: "At once" };
    const answers = await Promise.all(Array.from({ length: 4 }, () => reply(at)));
    expect(answers.map((a) => a.accepted)).toEqual(Array(4).fill([sent.replyTo]));
    expect(await inbound("<again-2@example.com>")).toHaveLength(1);
    expect((await timeline(client.id)).filter((e) => e.kind === "email_in")).toHaveLength(before + 1);
  });

  it("counts opens and clicks through the mail's signed pixel and links, each first one once on the timeline", async () => {
    const tracked = await client_("Ravi Tracked", "ravi.tracked@example.com");
    const res = await send({
      clientId: tracked.id,
      subject: "Our prices",
      body: '<p>See <a href="https://www.example.com/pricing/?plan=pro&amp;utm=mail">our prices</a> or <a href="mailto:sales@example.com">write</a>.</p>',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { message } = res.body;
    // The message keeps what was written; the mail sent carries the signed addresses.
    expect(message.body).toContain('href="https://www.example.com/pricing/?plan=pro&amp;utm=mail"');
    const html = await htmlOf(message.id);
    const pixel = path(html, /\/public\/mail\/[0-9a-f-]+\/open\.gif\?s=[\w-]+/);
    const click = path(html, /\/public\/mail\/[0-9a-f-]+\/click\?u=[^"]+/);
    expect(pixel).toContain(message.id);
    expect(html).toContain('href="mailto:sales@example.com"');
    expect(html).not.toContain('href="https://www.example.com/pricing');

    // Fetched three times (and once by a HEAD: a scanner), opened once, counted three times.
    for (let i = 0; i < 3; i++) {
      const got = await fetch(`${s.baseUrl}${pixel}`);
      expect(got.status).toBe(200);
      expect(got.headers.get("content-type")).toBe("image/gif");
      expect(Buffer.from(await got.arrayBuffer())).toEqual(PIXEL_GIF);
    }
    expect((await fetch(`${s.baseUrl}${pixel}`, { method: "HEAD" })).status).toBe(200);
    // Five at once (a mail program on two devices): still one open on the timeline.
    await Promise.all(
      Array.from({ length: 5 }, () => fetch(`${s.baseUrl}${pixel}`).then((r) => r.arrayBuffer())),
    );
    expect(await counts(message.id)).toMatchObject({ open_count: 8, click_count: 0 });

    // Followed twice: redirected to the link as written, one click on the timeline.
    for (let i = 0; i < 2; i++) {
      const got = await fetch(`${s.baseUrl}${click}`, { redirect: "manual" });
      expect(got.status).toBe(302);
      expect(got.headers.get("location")).toBe("https://www.example.com/pricing/?plan=pro&utm=mail");
    }
    expect(await counts(message.id)).toMatchObject({ open_count: 8, click_count: 2 });
    const entries = (await timeline(tracked.id)).filter((e) => e.kind !== "email_out");
    expect(entries.map((e) => [e.kind, e.title, e.ref_id])).toEqual([
      ["email_clicked", "Clicked example.com/pricing in “Our prices”", message.id],
      ["email_opened", "Opened “Our prices”", message.id],
    ]);

    // Refused, never redirected, nothing counted: no signature, an altered one, another target
    // under this signature, this signature on another mail, a signed address that is no web page.
    const signature = new URL(click, s.baseUrl).searchParams.get("s") as string;
    const refused = [
      [`/public/mail/${message.id}/open.gif`, 400],
      [`/public/mail/${message.id}/open.gif?s=${signature}`, 404],
      [`/public/mail/${message.id}/click?u=${encodeURIComponent("https://evil.example/")}`, 400],
      [
        `/public/mail/${message.id}/click?u=${encodeURIComponent("https://evil.example/")}&s=${signature}`,
        404,
      ],
      [click.replace("pricing", "pricingx"), 404],
      [click.replace(message.id, "00000000-0000-4000-8000-000000000000"), 404],
      [click.replace(/s=[\w-]+$/, "s=AAAA"), 404],
      [`/public/mail/not-a-mail/click?u=x&s=${signature}`, 404],
      [
        `/public/mail/${message.id}/click?u=${encodeURIComponent("javascript:alert(1)")}&s=${clickSignature(s.ctx.tokens, message.id, "javascript:alert(1)")}`,
        400,
      ],
    ] as const;
    for (const [address, status] of refused) {
      const got = await fetch(`${s.baseUrl}${address}`, { redirect: "manual" });
      expect([address, got.status]).toEqual([address, status]);
      expect(got.headers.get("location")).toBeNull();
    }
    expect(await counts(message.id)).toMatchObject({ open_count: 8, click_count: 2 });
    const read = (await call<CrmMessage>("GET", `/crm/messages/${message.id}`)).body;
    expect(read).toMatchObject({ opens: 8, clicks: 2 });
    expect(engagementText(read)).toBe("Opened 8 times, 2 clicks");
    expect(Date.parse(read.clicked_at as string)).toBeGreaterThanOrEqual(
      Date.parse(read.opened_at as string),
    );
  });
});
