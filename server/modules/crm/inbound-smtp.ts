/**
 * The CRM's reply listener (issue 16): a small SMTP server on its own port, off unless
 * CRM_INBOUND_SMTP_PORT is set. Mail for CRM_INBOUND_DOMAIN reaches it (an MX record, or a relay
 * such as Postfix forwarding that domain); it accepts only `reply+<token>@<domain>` addresses of
 * threads that exist (anything else: 550 at RCPT, before any data is sent) and messages up to
 * CRM_INBOUND_MAX_MB. No authentication: the thread token is the key.
 *
 * Several instances may each listen: everything lives in the database, and a reply delivered to
 * two of them is stored once (by Message-ID). A database failure answers 451, so the sending
 * server tries again later rather than dropping the reply.
 */
import { SMTPServer } from "smtp-server";
import type { AppContext } from "../../context";
import { threadByToken, threadTokenOf } from "./email-threads";
import { receiveReply } from "./inbound-email";

/** Recipients one message may have here (a reply has one; a few more are tolerated). */
const MAX_RECIPIENTS = 10;
const MAX_CLIENTS = 100;

export interface InboundListener {
  /** The port listened on (the configured one; the chosen one for port 0 in tests). */
  port: number;
  close(): Promise<void>;
}

/** An SMTP answer: `code` and its text. */
function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/** Starts the listener when configured; resolves once it listens (or fails to, naming why). */
export async function startInboundSmtp(ctx: AppContext): Promise<InboundListener | null> {
  const { port, host, domain, maxBytes } = ctx.config.crmInbound;
  if (port === null || domain === null) return null;
  const log = ctx.log.child({ component: "crm-inbound-smtp" });

  const server = new SMTPServer({
    name: domain,
    banner: "Atelier CRM replies",
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    size: maxBytes,
    rejectOversized: true,
    maxClients: MAX_CLIENTS,
    socketTimeout: 60_000,
    closeTimeout: 5_000,
    logger: false,
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS)
        return callback(smtpError(452, "4.5.3 Too many recipients"));
      const token = threadTokenOf(address.address, domain);
      if (!token) return callback(smtpError(550, "5.1.1 No such recipient here"));
      threadByToken(ctx.db, token).then(
        (thread) => callback(thread ? null : smtpError(550, "5.1.1 No such conversation here")),
        (err) => {
          log.warn({ err }, "reply address not checked: the database did not answer");
          callback(smtpError(451, "4.3.0 Try again later"));
        },
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        // Past the limit the rest is read and dropped (the server answers 552 for it).
        if (size <= maxBytes) chunks.push(chunk);
      });
      stream.on("end", () => {
        if (stream.sizeExceeded) return callback(smtpError(552, "5.3.4 Message too big"));
        receiveReply(ctx, {
          recipients: session.envelope.rcptTo.map((r) => r.address),
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          raw: Buffer.concat(chunks),
        }).then(
          (received) => {
            log.info(
              { messageId: received.messageId, stored: received.stored.length, replayed: received.replayed },
              "reply received",
            );
            callback();
          },
          (err) => {
            log.error({ err }, "reply not stored; the sender will try again");
            callback(smtpError(451, "4.3.0 Try again later"));
          },
        );
      });
    },
  });
  server.on("error", (err) => log.warn({ err }, "inbound SMTP connection error"));

  await new Promise<void>((resolve, reject) => {
    const failed = (err: Error) =>
      reject(new Error(`CRM_INBOUND_SMTP_PORT: cannot listen on ${host}:${port} (${err.message})`));
    server.server.once("error", failed);
    server.listen(port, host, () => {
      server.server.off("error", failed);
      resolve();
    });
  });
  const address = server.server.address();
  const listening = typeof address === "object" && address ? address.port : port;
  log.info({ host, port: listening, domain }, "listening for replies to CRM emails");
  return {
    port: listening,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
