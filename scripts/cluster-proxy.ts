/**
 * The local cluster's front door (`npm run start:cluster`): one HTTP server on `PORT` that
 * hands each request to one of the instances through http-proxy-3 (a maintained fork of
 * node-http-proxy, WebSocket upgrades included), skipping instances that are down.
 *
 * Routing, and why:
 * - `/socket.io/…` (HTTP long-polling and the WebSocket upgrade) is sticky by client IP. Both
 *   socket clients of the SPA (providers/live-provider.ts, src/pages/dam/use-dam-live.ts)
 *   keep socket.io's default transports: the handshake and the first exchanges are polling
 *   requests that only the instance holding the engine.io session can answer. nginx's
 *   `ip_hash` does the same (docs/deployment.md), and clients keep the polling fallback for
 *   networks that block WebSockets.
 * - Everything else is stateless and goes round-robin: a change made through one instance
 *   reaches sockets held by another through the server's socket.io adapter.
 * When the hashed instance is down the next one up takes the client; its socket reconnects.
 *
 * @example
 * const proxy = await startProxy({ port: 8080, host: "127.0.0.1", upstreams: () => ports });
 * // … later
 * await proxy.close();
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import { createProxyServer } from "http-proxy-3";

/** One instance as the proxy sees it. */
export interface Upstream {
  port: number;
  /** Healthy and not draining: may receive new requests. */
  up: boolean;
}

export interface ProxyOptions {
  port: number;
  host: string;
  /** The instances in a fixed order (the sticky hash is over this list), read at every request. */
  upstreams: () => readonly Upstream[];
  /** Told when a request to an instance could not even connect: it is down until proven up. */
  onRefused?: (port: number) => void;
}

export interface RunningProxy {
  server: http.Server;
  port: number;
  close(): Promise<void>;
}

/** `/socket.io` requests: polling and upgrades of one engine.io session must meet one instance. */
export const isSocketPath = (url: string | undefined) => (url ?? "").startsWith("/socket.io");

/**
 * The instance for a sticky key: its hash picks a slot in the full list, and when that
 * instance is down the next one up in list order takes it (so only its clients move).
 *
 * @example
 * pickSticky([{ port: 1, up: true }, { port: 2, up: false }], "10.0.0.7"); // port 1 or, if hashed to 2, 1
 */
export function pickSticky(upstreams: readonly Upstream[], key: string): Upstream | null {
  if (upstreams.length === 0) return null;
  const start = createHash("sha1").update(key).digest().readUInt32BE(0) % upstreams.length;
  for (let i = 0; i < upstreams.length; i++) {
    const candidate = upstreams[(start + i) % upstreams.length];
    if (candidate.up) return candidate;
  }
  return null;
}

/** Round-robin over the instances that are up; `cursor` is advanced by the caller. */
export function pickRoundRobin(upstreams: readonly Upstream[], cursor: number): Upstream | null {
  const up = upstreams.filter((u) => u.up);
  return up.length ? up[cursor % up.length] : null;
}

const json = (res: http.ServerResponse, status: number, message: string) => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "retry-after": "1" });
  res.end(JSON.stringify({ message }));
};

const connectRefused = (error: unknown) => (error as NodeJS.ErrnoException)?.code === "ECONNREFUSED";

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  // xfwd: the instances run with TRUST_PROXY=true and see the client's address, so per-IP
  // limits and security events name the client, not the proxy.
  // A keep-alive agent: without one every request opens (and leaves in TIME_WAIT) a new
  // connection to the instance, which under load costs more than the proxying itself.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const proxy = createProxyServer({ xfwd: true, ws: true, proxyTimeout: 120_000, agent });
  let cursor = 0;
  const target = (u: Upstream) => `http://127.0.0.1:${u.port}`;
  const clientKey = (req: http.IncomingMessage) => req.socket.remoteAddress ?? "";

  const pick = (req: http.IncomingMessage, avoid?: number): Upstream | null => {
    const all = options.upstreams().map((u) => (u.port === avoid ? { ...u, up: false } : u));
    return isSocketPath(req.url) ? pickSticky(all, clientKey(req)) : pickRoundRobin(all, cursor++);
  };

  const forward = (req: http.IncomingMessage, res: http.ServerResponse, avoid?: number) => {
    const upstream = pick(req, avoid);
    if (!upstream) {
      json(res, 503, "No instance is up at the moment; retry shortly.");
      return;
    }
    proxy.web(req, res, { target: target(upstream) }, (error) => {
      if (connectRefused(error)) {
        options.onRefused?.(upstream.port);
        // Nothing reached the instance, and a request without a body can be sent again as
        // is. A write is not retried here: its body was already read from the client.
        if (avoid === undefined && (req.method === "GET" || req.method === "HEAD")) {
          forward(req, res, upstream.port);
          return;
        }
      }
      json(res, 502, "The instance did not answer; retry shortly.");
    });
  };

  const server = http.createServer((req, res) => forward(req, res));
  server.on("upgrade", (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    const upstream = pick(req);
    if (!upstream) {
      socket.end("HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    proxy.ws(req, socket, head, { target: target(upstream) }, (error) => {
      if (connectRefused(error)) options.onRefused?.(upstream.port);
      socket.destroy();
    });
  });
  // A client that goes away mid-request is not the proxy's failure.
  server.on("clientError", (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    server,
    port: typeof address === "object" && address ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        proxy.close();
        agent.destroy();
      }),
  };
}
