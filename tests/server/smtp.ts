/**
 * A real SMTP server on loopback for the mail tests: every message it receives, decoded from
 * quoted-printable so it reads as sent.
 *
 * @example
 * const smtp = await startSmtp();
 * const s = await startServer("pglite", { SMTP_URL: smtp.url });
 * await expect.poll(() => smtp.received.length).toBe(1);
 * await smtp.close();
 */
import { SMTPServer } from "smtp-server";

export interface TestSmtp {
  /** `smtp://127.0.0.1:<port>` */
  url: string;
  /** Whole messages (headers and body), in arrival order. */
  received: string[];
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const received: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, done) {
      let data = "";
      stream.on("data", (chunk) => {
        data += chunk;
      });
      stream.on("end", () => {
        received.push(
          data
            .replace(/=\r?\n/g, "")
            .replace(/=([0-9A-F]{2})/g, (_m, h) => String.fromCharCode(Number.parseInt(h, 16))),
        );
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
