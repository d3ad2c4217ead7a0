/**
 * Which errors mean "the database is unavailable right now" (503), on errors that pg and
 * pg-pool really produce against a closed port and a silent one, and on the SQLSTATEs a
 * server going away sends. tests/server/db-loss.test.ts covers the real outage end to end.
 */
import net from "node:net";
import Fastify from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleError } from "../http/errors";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "./unavailable";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  let closedPort: number;
  let silent: net.Server;
  let silentPort: number;
  const sockets: net.Socket[] = [];

  beforeAll(async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    closedPort = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    // Accepts connections and never says a word, like a peer lost in a failover.
    silent = net.createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    silentPort = (silent.address() as net.AddressInfo).port;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it("a refused connection", async () => {
    const client = new pg.Client({ connectionString: `postgres://x@127.0.0.1:${closedPort}/x` });
    const error = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeTruthy();
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("a connection that times out, from the pool and from a client", async () => {
    const pool = new pg.Pool({
      connectionString: `postgres://x@127.0.0.1:${silentPort}/x`,
      connectionTimeoutMillis: 200,
    });
    pool.on("error", () => {});
    const fromPool = await pool.query("select 1").then(
      () => null,
      (e: unknown) => e,
    );
    await pool.end();
    expect(String(fromPool)).toMatch(/timeout/i);
    expect(isDatabaseUnavailable(fromPool)).toBe(true);

    const client = new pg.Client({
      connectionString: `postgres://x@127.0.0.1:${silentPort}/x`,
      connectionTimeoutMillis: 200,
    });
    const fromClient = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(isDatabaseUnavailable(fromClient)).toBe(true);
  });

  it("the SQLSTATEs of a server going away or not ready, and a lost connection", () => {
    for (const code of ["57P01", "57P02", "57P03", "08006", "08001", "08P01", "53300"]) {
      expect(isDatabaseUnavailable(withCode("server says no", code)), code).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("read ECONNRESET", "ECONNRESET"))).toBe(true);
    // Node reports each address it tried in an AggregateError.
    expect(
      isDatabaseUnavailable(new AggregateError([withCode("connect ECONNREFUSED ::1:5432", "ECONNREFUSED")])),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error("wrapped", { cause: withCode("x", "ETIMEDOUT") }))).toBe(true);
  });

  it("everything else is not", () => {
    for (const code of ["23505", "23503", "22P02", "42P01", "40001", "ENOENT"]) {
      expect(isDatabaseUnavailable(withCode("nope", code)), code).toBe(false);
    }
    expect(isDatabaseUnavailable(new Error("Something else"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable("Connection terminated")).toBe(false);
  });
});

describe("the error handler", () => {
  const app = Fastify({ logger: false });
  app.setErrorHandler(handleError);
  app.get("/down", async () => {
    throw withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED");
  });
  app.get("/bug", async () => {
    throw new Error("a bug");
  });
  afterAll(() => app.close());

  it("answers 503 with Retry-After while the database is unavailable", async () => {
    const res = await app.inject({ method: "GET", url: "/down" });
    expect(res.statusCode).toBe(503);
    expect(res.headers["retry-after"]).toBe("5");
    expect(res.json()).toEqual({
      statusCode: 503,
      error: "Service Unavailable",
      message: DATABASE_UNAVAILABLE_MESSAGE,
    });
  });

  it("still answers 500 for anything else", async () => {
    const res = await app.inject({ method: "GET", url: "/bug" });
    expect(res.statusCode).toBe(500);
    expect(res.headers["retry-after"]).toBeUndefined();
  });
});
