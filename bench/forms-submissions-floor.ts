/**
 * The forms submissions bench's other processes (bench/forms-submissions.ts), each forked from
 * this file with a flag:
 * - the floor (`--forms-floor-child`): a bare Fastify 5 server answering
 *   `POST /floor/submissions` by ONE insert of the answers (jsonb) into a table of its own,
 *   201 `{ id }`: no validation, no rate limit, no batching, no mail, no webhook, no stats. It
 *   opens its database as the other floors do (`openFloorDatabase`): on PostgreSQL a `pg` Pool
 *   of its own (max 10) on the app's database; on PGlite a PGlite of its own.
 * - the sink (`--forms-sink-child`): what the app delivers to after the answers, a loopback
 *   HTTP receiver for the webhook (204 to every POST) and, when asked, a loopback SMTP server;
 *   `GET /received` counts what arrived. In a process of its own, so receiving costs the app's
 *   process nothing it would not pay against a remote endpoint.
 */
import http from "node:http";
import type net from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { SMTPServer } from "smtp-server";
import { ForkedServer, serveForked } from "./bench-run";
import { listenFloor, openFloorDatabase, type Query } from "./resource-engine-floor";

export const floorPath = "/floor/submissions";

/** The floor's table: created in the app's database (PostgreSQL) or in its own PGlite. */
const FLOOR_DDL = `create table if not exists bench_floor_submissions (
  id uuid primary key default gen_random_uuid(),
  answers jsonb not null,
  created_at timestamptz not null default now()
)`;
const FLOOR_INSERT = "insert into bench_floor_submissions (answers) values ($1) returning id";

function floorServer(query: Query): FastifyInstance {
  const floor = Fastify({ logger: false });
  floor.post<{ Body: { answers?: unknown } }>(floorPath, async (request, reply) => {
    const { rows } = await query(FLOOR_INSERT, [JSON.stringify(request.body.answers ?? {})]);
    return reply.status(201).send({ id: rows[0].id });
  });
  floor.get("/floor/stored", async () => {
    const { rows } = await query("select count(*)::int as n from bench_floor_submissions", []);
    return { stored: Number(rows[0].n) };
  });
  return floor;
}

export interface FormsFloorStart {
  /** postgres:// URL of the app's database; null: a PGlite of the floor's own. */
  databaseUrl: string | null;
  /** PGlite only: keep it in memory rather than in a temp data dir. */
  inMemory: boolean;
}

export interface FormsFloorReady {
  url: string;
  where: string;
}

async function startFloor(start: FormsFloorStart) {
  // Its one table only: the app's schema is not needed, and migrating it costs PGlite seconds.
  const { query, where, closers } = await openFloorDatabase(start, { migrate: false });
  await query(FLOOR_DDL, []);
  const { url, close } = await listenFloor(floorServer(query), closers);
  return { ready: { url, where } satisfies FormsFloorReady, close };
}

export type FormsFloorProcess = ForkedServer<FormsFloorReady>;

export const startFormsFloor = (start: FormsFloorStart): Promise<FormsFloorProcess> =>
  ForkedServer.start<FormsFloorStart, FormsFloorReady>(import.meta.url, "--forms-floor-child", start);

/** How many rows the floor stored, by its own count. */
export async function floorStored(floorUrl: string): Promise<number> {
  return ((await (await fetch(`${floorUrl}/floor/stored`)).json()) as { stored: number }).stored;
}

// ---------------------------------------------------------------------------------------------
// The sink
// ---------------------------------------------------------------------------------------------

export interface SinkStart {
  /** Also listen for mail (SMTP on loopback). */
  smtp: boolean;
}

export interface SinkReady {
  /** Base URL of the HTTP receiver: webhooks to `${url}/hook`, counts at `${url}/received`. */
  url: string;
  /** `smtp://127.0.0.1:<port>`, or null. */
  smtpUrl: string | null;
}

/** What arrived at the sink: webhook calls, and mails (SMTP messages). */
export interface Received {
  hooks: number;
  mails: number;
}

async function startSink(start: SinkStart) {
  const received: Received = { hooks: 0, mails: 0 };
  const server = http.createServer((req, res) => {
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received));
      return;
    }
    req.resume();
    req.on("end", () => {
      received.hooks++;
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const closers: Array<() => Promise<void>> = [
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  ];
  let smtpUrl: string | null = null;
  if (start.smtp) {
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      // No reverse DNS of each client (loopback): a slow resolver would slow the app's sender.
      disableReverseLookup: true,
      logger: false,
      onData(stream, _session, done) {
        stream.resume();
        stream.on("end", () => {
          received.mails++;
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as net.AddressInfo).port}`;
    closers.push(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
  }
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    ready: { url, smtpUrl } satisfies SinkReady,
    close: async () => {
      for (const c of closers) await c();
    },
  };
}

export type SinkProcess = ForkedServer<SinkReady>;

export const startSinkProcess = (start: SinkStart): Promise<SinkProcess> =>
  ForkedServer.start<SinkStart, SinkReady>(import.meta.url, "--forms-sink-child", start);

export async function sinkReceived(sink: SinkProcess): Promise<Received> {
  return (await (await fetch(`${sink.ready.url}/received`)).json()) as Received;
}

if (process.argv[2] === "--forms-floor-child") serveForked(startFloor);
if (process.argv[2] === "--forms-sink-child") serveForked(startSink);
