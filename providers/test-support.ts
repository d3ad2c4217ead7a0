/**
 * Test support for the providers (imported by tests only):
 * - a scriptable HTTP server on 127.0.0.1: each test sets the handler and every request is
 *   recorded. Real sockets, so axios runs its real Node adapter;
 * - a browser-like `document.cookie`, so js-cookie runs unmodified under Node.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  /** The Idempotency-Key header; undefined when absent (so `toEqual` ignores it). */
  idempotencyKey?: string;
  body: unknown;
}

export interface Reply {
  status: number;
  body?: unknown;
  /** Wait before answering, to make requests overlap. */
  delayMs?: number;
  /** Close the socket without answering (a "no response" failure). */
  hangUp?: boolean;
  /** Extra answer headers (e.g. retry-after). */
  headers?: Record<string, string>;
}

export type Handler = (request: RecordedRequest) => Reply;

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  handle(handler: Handler): void;
  count(path: string): number;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export async function startTestServer(): Promise<TestServer> {
  let handler: Handler = () => ({ status: 404 });
  const requests: RecordedRequest[] = [];

  const server: Server = createServer(async (req, res) => {
    const request: RecordedRequest = {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      authorization: req.headers.authorization,
      idempotencyKey: req.headers["idempotency-key"] as string | undefined,
      body: await readBody(req),
    };
    requests.push(request);
    const reply = handler(request);
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (reply.hangUp) {
      req.socket.destroy();
      return;
    }
    res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    res.end(reply.body === undefined ? "" : JSON.stringify(reply.body));
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle: (next) => {
      handler = next;
    },
    count: (path) => requests.filter((r) => r.path === path).length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * A browser-like `document.cookie`: writes are "name=value; attr=..." strings, reads give
 * "a=1; b=2"; a cookie whose expires is in the past is deleted, as browsers do.
 */
/**
 * One test server for the calling file or describe block: started before its tests, its
 * recorded requests cleared before each, closed after.
 *
 * @example
 * let server: TestServer;
 * withTestServer((started) => { server = started; });
 */
export function withTestServer(assign: (server: TestServer) => void): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    assign(server);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    if (server) server.requests.length = 0;
  });
}

export class CookieDocument {
  readonly jar = new Map<string, string>();
  readonly writes: string[] = [];

  get cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  set cookie(raw: string) {
    this.writes.push(raw);
    const [pair, ...attributes] = raw.split("; ");
    const separator = pair.indexOf("=");
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    const expires = attributes.find((a) => a.toLowerCase().startsWith("expires="));
    if (expires && Date.parse(expires.slice("expires=".length)) <= Date.now()) this.jar.delete(name);
    else this.jar.set(name, value);
  }

  lastWrite(name: string): string | undefined {
    return this.writes.filter((w) => w.startsWith(`${name}=`)).at(-1);
  }
}
