/**
 * Issue 26 tried as a hostile caller and a misbehaving provider would, on PGlite and PostgreSQL:
 * - an automation's webhook: a caller without the secret hears a 404 even with an
 *   Idempotency-Key someone used (never the kept answer: a run's id, and that it exists);
 *   malformed keys are a 400 naming the header; a key is one event per automation, and keys
 *   are compared as sent (another case is another key);
 * - the log: a webhook secret sent in an absolute-form request target (`POST http://host/…`,
 *   which is routed and runs) or in a path with dot segments (a 404) is redacted all the same;
 * - inbound mail: mails with an empty Message-ID (`<>`) are each stored, not dropped as one;
 *   a NUL character in the Message-ID, subject or text is stored without it (it used to fail
 *   the store, so the sender was told "try later" forever), and a replay is still one reply;
 * - money: exponents, three decimals, Devanagari digits, commas and huge amounts in a price, an
 *   opportunity's value and a proposal line are a 400 naming the field, or exact.
 */
import { randomUUID } from "node:crypto";
import net from "node:net";
import { Writable } from "node:stream";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookTaskAutomation } from "../../schemas/automation-fixtures";
import { importFile } from "./csv-fixtures";
import { DRIVERS, startServer, type TestServer } from "./harness";
import { inboundSmsParams, type LoopbackTwilio, postTwilioWebhook, startLoopbackTwilio } from "./twilio";

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;

const DOMAIN = "replies.example.test";
const PUBLIC_URL = "https://atelier.example.test";

function logCapture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A raw HTTP/1.1 request, for request targets `fetch` will not send; answers the status. */
function rawRequest(port: number, requestLine: string, body = "{}"): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = "";
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(
        `${requestLine}\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
    socket.on("data", (chunk) => {
      out += chunk.toString();
    });
    socket.on("end", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1] ?? 0)));
    socket.on("error", reject);
  });
}

describe.each(DRIVERS)("issue 26 against a hostile caller on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let inboundPort: number;
  let twilio: LoopbackTwilio;
  const log = logCapture();
  const call = (method: string, path: string, body?: unknown) =>
    s.api<Any>(method, path, { token: admin, body });

  beforeAll(async () => {
    inboundPort = await freePort();
    twilio = await startLoopbackTwilio();
    s = await startServer(
      driver,
      { CRM_INBOUND_DOMAIN: DOMAIN, CRM_INBOUND_SMTP_PORT: String(inboundPort), ...twilio.env(), PUBLIC_URL },
      { logger: { level: "debug", stream: log.stream } },
    );
    admin = (await s.signIn()).accessToken;
  });
  afterAll(async () => {
    await s?.close();
    await twilio?.close();
  });

  /** A published automation started by its incoming webhook: its id, path and secret. */
  async function webhookAutomation() {
    const flow = (await call("POST", "/api/automations", { name: `Hook ${randomUUID()}` })).body;
    const definition = webhookTaskAutomation("Hi");
    expect((await call("PUT", `/api/automations/${flow.id}/draft`, { definition })).status).toBe(200);
    expect((await call("POST", `/api/automations/${flow.id}/publish`)).status).toBe(200);
    const path = String((await call("GET", `/api/automations/${flow.id}/draft`)).body.webhookPath);
    return { id: String(flow.id), path, secret: path.split("/").pop() as string };
  }
  const hook = (path: string, key?: string) =>
    s.api<Any>("POST", path, { body: { caller: "Sam" }, headers: key ? { "idempotency-key": key } : {} });

  it("answers a caller without the webhook's secret 404, even with an Idempotency-Key someone used", async () => {
    const flow = await webhookAutomation();
    const key = `order-${randomUUID()}`;
    const first = await hook(flow.path, key);
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body.runId).toEqual(expect.any(String));

    // The same length and alphabet as the real secret, and one character off it.
    const forgedSecret = `${flow.secret.slice(0, -1)}${flow.secret.endsWith("A") ? "B" : "A"}`;
    for (const forged of [
      flow.path.replace(flow.secret, forgedSecret),
      flow.path.replace(flow.secret, "not-the-secret"),
    ]) {
      const res = await hook(forged, key);
      expect(res.status, forged).toBe(404);
      expect(res.body.message).toBe("No automation listens at this address");
      expect(JSON.stringify(res.body)).not.toContain(first.body.runId);
      expect(res.headers.get("idempotent-replayed")).toBeNull();
    }
    // The one who holds the secret still gets the first answer again, and no second run.
    const again = await hook(flow.path, key);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });

  it("refuses malformed keys with a 400 naming the header; a key is one event per automation, as sent", async () => {
    const one = await webhookAutomation();
    const two = await webhookAutomation();
    for (const bad of ["", "x".repeat(256), "clé-ünïcode"]) {
      const res = await hook(one.path, bad || " ");
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.details).toEqual([
        { field: "Idempotency-Key", message: "Idempotency key must be 1 to 255 printable ASCII characters" },
      ]);
    }
    const longest = "k".repeat(255);
    const a = await hook(one.path, longest);
    const b = await hook(two.path, longest);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(b.body.runId).not.toBe(a.body.runId);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    // Keys are opaque: another case is another key (and so another event).
    const lower = await hook(one.path, "Key-Case");
    const upper = await hook(one.path, "KEY-CASE");
    expect(upper.body.runId).not.toBe(lower.body.runId);
    expect((await hook(one.path, "KEY-CASE")).body).toEqual(upper.body);
  });

  it("keeps a webhook secret out of the log in an absolute-form target and in paths with dot segments", async () => {
    const flow = await webhookAutomation();
    const port = Number(new URL(s.baseUrl).port);
    const before = log.lines.length;
    // Routed by its path: the run starts, and its line must not carry the secret.
    expect(await rawRequest(port, `POST http://127.0.0.1:${port}${flow.path} HTTP/1.1`)).toBe(202);
    expect(await rawRequest(port, `POST HTTP://user:pass@127.0.0.1:${port}${flow.path} HTTP/1.1`)).toBe(202);
    const tail = flow.path.slice("/hooks/automations/".length);
    for (const path of [
      `/hooks/./automations/${tail}`,
      `/hooks/%2e/automations/${tail}`,
      `/elsewhere/../hooks/automations/${tail}`,
      `/hooks/automations/${tail}/..`,
    ])
      expect(await rawRequest(port, `POST ${path} HTTP/1.1`), path).toBe(404);
    const completed = () => log.lines.slice(before).filter((l) => l.includes('"msg":"request completed"'));
    await expect.poll(() => completed().length, { timeout: 20_000 }).toBeGreaterThanOrEqual(6);
    const lines = log.lines.slice(before);
    expect(lines.join("\n")).not.toContain(flow.secret);
    expect(lines.join("\n")).not.toContain("user:pass");
    const urls = lines.map((l) => (JSON.parse(l) as { req?: { url?: string } }).req?.url ?? "");
    expect(urls).toEqual(
      expect.arrayContaining([
        `http://127.0.0.1:${port}/hooks/automations/${flow.id}/[redacted]`,
        `HTTP://[redacted]@127.0.0.1:${port}/hooks/automations/${flow.id}/[redacted]`,
        `/hooks/./automations/${flow.id}/[redacted]`,
        `/elsewhere/../hooks/automations/${flow.id}/[redacted]`,
        `/hooks/automations/${flow.id}/[redacted]/..`,
      ]),
    );
  });

  describe("inbound mail", () => {
    let to: string;
    let clientId: string;
    /** Delivers a raw mail to the reply listener as a sending server would; answers the reply's fate. */
    const deliver = (raw: string) =>
      nodemailer
        .createTransport({ host: "127.0.0.1", port: inboundPort, secure: false, ignoreTLS: true })
        .sendMail({ envelope: { from: "asha@example.com", to: [to] }, raw });
    const mail = (headers: string, text: string) =>
      `From: Asha <asha@example.com>\r\nTo: ${to}\r\n${headers}\r\n\r\n${text}\r\n`;
    const stored = async () =>
      s.database.db
        .selectFrom("crm_messages")
        .select(["subject", "body_text", "message_id"])
        .where("client_id", "=", clientId)
        .where("direction", "=", "in")
        .orderBy("created_at")
        .execute();

    beforeAll(async () => {
      const client = await call("POST", "/crm/clients", { name: "Asha Rao", email: "asha@example.com" });
      expect(client.status, JSON.stringify(client.body)).toBe(201);
      clientId = client.body.id;
      const token = randomUUID().replaceAll("-", "");
      await s.database.db
        .insertInto("crm_email_threads")
        .values({ token, client_id: clientId, subject: "Lamps", message_id: `<${token}@${DOMAIN}>` })
        .execute();
      to = `reply+${token}@${DOMAIN}`;
    });

    it("stores two different mails that both say Message-ID <>, and one of a mail sent twice", async () => {
      const first = mail("Subject: First\r\nMessage-ID: <>", "The first answer");
      const second = mail("Subject: Second\r\nMessage-ID: <>", "Another answer");
      for (const raw of [first, second, first]) expect((await deliver(raw)).accepted).toEqual([to]);
      const rows = await stored();
      expect(rows.map((r) => r.subject)).toEqual(["First", "Second"]);
      expect(rows.every((r) => r.message_id !== "<>")).toBe(true);
    });

    it("stores a mail with NUL characters in its Message-ID, subject and text, without them, once", async () => {
      const raw = mail(
        "Subject: =?utf-8?q?Re=00ply?=\r\nMessage-ID: <nul\u0000id@example.com>",
        "Yes\u0000 please",
      );
      // It used to fail the store: the sender heard "try again later" on every delivery.
      for (let i = 0; i < 2; i++) expect((await deliver(raw)).accepted).toEqual([to]);
      const rows = (await stored()).filter((r) => r.message_id === "<nulid@example.com>");
      expect(rows).toEqual([
        { subject: "Reply", body_text: "Yes please", message_id: "<nulid@example.com>" },
      ]);
    });
  });

  it("takes no blank MessageSid for an SMS's id: refused alone, SmsSid read when it is blank", async () => {
    const url = `${PUBLIC_URL}/crm/hooks/sms/inbound`;
    const made = await call("POST", "/crm/clients", {
      name: "Meera",
      phone: "+919800000077",
      consent_sms: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const sms = (body: string, extra: Record<string, string>) =>
      postTwilioWebhook(
        `${s.baseUrl}/crm/hooks/sms/inbound`,
        url,
        twilio.authToken,
        inboundSmsParams(twilio.accountSid, "+919800000077", twilio.from, body, extra),
      );
    // Two different messages with a blank id: each refused, neither taken as the other's replay.
    for (const body of ["First blank", "Second blank"]) {
      const res = await sms(body, { MessageSid: "   ", SmsSid: " " });
      expect(res.status, res.body).toBe(400);
      expect(res.body).toContain("MessageSid and From are required");
    }
    // A blank MessageSid beside a real SmsSid: the SmsSid is the id, a replay of it does nothing.
    const smsSid = `SM${randomUUID().replaceAll("-", "")}`;
    const first = await sms("By SmsSid", { MessageSid: "", SmsSid: smsSid });
    const again = await sms("By SmsSid", { MessageSid: "", SmsSid: smsSid });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect([first.replayed, again.replayed]).toEqual([false, true]);
    const rows = await s.database.db
      .selectFrom("crm_messages")
      .select("body_text")
      .where("channel", "=", "sms")
      .where("direction", "=", "in")
      .where("client_id", "=", made.body.id)
      .execute();
    expect(rows.map((r) => r.body_text)).toEqual(["By SmsSid"]);
  });

  it("imports no CSV price that a number would round: more digits than it keeps are a row error", async () => {
    await call("POST", "/api/categories", { name: `csvcat-${driver}` });
    const res = await importFile(s, admin, "/api/products", [
      "SKU code,Name,Price,Category",
      `C-1,Long decimal,12.340000000000000001,csvcat-${driver}`,
      `C-2,Long whole,12345678901234567,csvcat-${driver}`,
      `C-3,Devanagari,१२,csvcat-${driver}`,
      `C-4,Trailing zeros,12.340000000000000000,csvcat-${driver}`,
      `C-5,Exponent,1e3,csvcat-${driver}`,
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    const errors = (res.body as Any).errors as Array<{ row: number; field: string; message: string }>;
    expect(errors.filter((e) => e.row === 2)).toEqual([
      { row: 2, field: "Price", message: "Price must have at most 2 decimal places" },
    ]);
    expect(errors.filter((e) => e.row === 3).map((e) => e.field)).toEqual(["Price"]);
    expect(errors.filter((e) => e.row === 4)).toEqual([
      { row: 4, field: "Price", message: "Price must be a number" },
    ]);
    // Written exactly, however long: no error for them.
    expect(errors.filter((e) => e.row >= 5)).toEqual([]);
  });

  it("answers money spelled as a hostile user would with a 400 naming the field, or exactly", async () => {
    const category = (await call("POST", "/api/categories", { name: `Money ${driver}` })).body;
    const product = (price: unknown) =>
      call("POST", "/api/products", {
        sku_code: `M-${randomUUID().slice(0, 8)}`,
        name: "Lamp",
        price,
        currency: "INR",
        category_id: category.id,
      });
    for (const price of ["1e3", "0.005", "-0", "१२", "12,50", "", 0.005, 1e308, 999999999.995, -0.01]) {
      const res = await product(price);
      expect(res.status, JSON.stringify(price)).toBe(400);
      expect(res.body.details.map((d: Any) => d.field)).toContain("price");
      expect(res.body.details[0].message).toMatch(/^Price /);
    }
    for (const [price, exact] of [
      [1e3, 1000],
      [-0, 0],
      [0.29, 0.29],
      [999999999.99, 999999999.99],
    ]) {
      const res = await product(price);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.price).toBe(exact);
    }

    const client = (await call("POST", "/crm/clients", { name: "Ravi", email: "ravi@example.com" })).body;
    for (const value of ["1e3", 0.005, "१२", 1e15, -1]) {
      const res = await call("POST", "/crm/opportunities", { title: "Deal", client_id: client.id, value });
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect(res.body.details.map((d: Any) => d.field)).toContain("value");
    }

    const big = (await product(999999999.99)).body;
    const draft = (await call("POST", "/api/proposals", { title: "Big", client_id: client.id })).body;
    for (const quantity of [1e6, 1e15, 0.5, "1e3", 1e-7]) {
      const res = await call("PUT", `/api/proposals/${draft.id}/lines`, {
        lines: [{ product_id: big.id, quantity }],
      });
      expect(res.status, JSON.stringify(quantity)).toBe(400);
      expect(res.body.details.map((d: Any) => d.field)).toEqual(["lines.0.quantity"]);
    }
    const res = await call("PUT", `/api/proposals/${draft.id}/lines`, {
      lines: [{ product_id: big.id, quantity: 3 }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await call("GET", `/api/proposals/${draft.id}`)).body.total).toBe(2999999999.97);
  });
});
