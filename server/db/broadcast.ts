/**
 * Messages to every server instance on one database: PostgreSQL LISTEN/NOTIFY when several
 * instances may share it, in-process delivery on PGlite (one process by construction).
 * Used to forget cached sessions everywhere at once (server/auth/principal-cache.ts).
 */
import { randomUUID } from "node:crypto";
import pg from "pg";

export type Handler = (payload: string) => void;

export interface Broadcast {
  /** Delivers to this instance's handlers at once, and to other instances' soon after. */
  publish(channel: string, payload: string): Promise<void>;
  subscribe(channel: string, handler: Handler): void;
  /** Called with false while other instances' messages may be missed, true when they flow again. */
  onStatus(listener: (connected: boolean) => void): void;
  close(): Promise<void>;
}

/** Channel names are SQL identifiers we choose; payloads are ours too, but bound anyway. */
const CHANNEL = /^[a-z_][a-z0-9_]*$/;

class Local {
  readonly handlers = new Map<string, Handler[]>();

  deliver(channel: string, payload: string) {
    for (const handler of this.handlers.get(channel) ?? []) handler(payload);
  }

  add(channel: string, handler: Handler): boolean {
    if (!CHANNEL.test(channel)) throw new Error(`Bad broadcast channel: ${channel}`);
    const list = this.handlers.get(channel);
    if (list) list.push(handler);
    else this.handlers.set(channel, [handler]);
    return !list;
  }
}

export function localBroadcast(): Broadcast {
  const local = new Local();
  return {
    async publish(channel, payload) {
      local.deliver(channel, payload);
    },
    subscribe: (channel, handler) => void local.add(channel, handler),
    onStatus: () => {},
    close: async () => {},
  };
}

export interface PostgresBroadcastOptions {
  /** Wait between reconnection attempts, ms. */
  retryMs?: number;
  /** Longest wait for the LISTEN connection to open, ms. */
  connectMs?: number;
  /**
   * How often the idle LISTEN connection is checked with a query, ms. A failover behind a
   * virtual IP can leave it open on a peer that is gone without a word: it would never
   * receive another message, and never notice.
   */
  heartbeatMs?: number;
  /** Told of every lost LISTEN connection (for the log); reconnection is automatic. */
  onError?: (error: Error) => void;
}

/**
 * LISTEN on a dedicated connection, NOTIFY through the pool. The connection is re-opened
 * (and every channel LISTENed again) after any loss; while it is down, `onStatus` listeners
 * hear `false`, since other instances' messages are missed meanwhile.
 */
export function postgresBroadcast(
  url: string,
  pool: pg.Pool,
  options: PostgresBroadcastOptions = {},
): Broadcast {
  const { retryMs = 1000, connectMs = 5000, heartbeatMs = 15_000, onError } = options;
  const local = new Local();
  const self = randomUUID();
  const statusListeners: ((connected: boolean) => void)[] = [];
  let client: pg.Client | null = null;
  let closed = false;
  let connected = false;
  let retry: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;

  const setStatus = (value: boolean) => {
    if (connected === value) return;
    connected = value;
    for (const l of statusListeners) l(value);
  };

  const connect = async () => {
    retry = null;
    if (closed || !local.handlers.size) return;
    const c = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: connectMs,
      query_timeout: connectMs,
      keepAlive: true,
      application_name: "atelier-listen",
    });
    client = c;
    let listening = false;
    const lost = (error: Error) => {
      if (client !== c) return;
      client = null;
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      setStatus(false);
      // Failed attempts while the database is down are retried quietly (the pool's errors
      // and the 503 answers tell that story); the loss of a working listener is news.
      if (listening && !closed) onError?.(error);
      c.end().catch(() => {});
      if (!closed) retry = setTimeout(connect, retryMs);
    };
    c.on("error", lost);
    c.on("end", () => lost(new Error("Connection terminated")));
    c.on("notification", (n) => {
      const text = n.payload ?? "";
      const bar = text.indexOf("|");
      if (bar < 0 || text.slice(0, bar) === self) return; // ours: delivered locally already
      local.deliver(n.channel, text.slice(bar + 1));
    });
    try {
      await c.connect();
      for (const channel of local.handlers.keys()) await c.query(`LISTEN ${channel}`);
      if (client !== c) return;
      heartbeat = setInterval(() => {
        c.query("select 1").catch((error: Error) => lost(error));
      }, heartbeatMs);
      heartbeat.unref();
      listening = true;
      setStatus(true);
    } catch (error) {
      lost(error as Error);
    }
  };

  return {
    async publish(channel, payload) {
      local.deliver(channel, payload);
      await pool.query("select pg_notify($1, $2)", [channel, `${self}|${payload}`]);
    },
    subscribe(channel, handler) {
      const isNew = local.add(channel, handler);
      if (!isNew) return;
      if (client && connected) client.query(`LISTEN ${channel}`).catch(() => {});
      else if (!client && !retry) void connect();
    },
    onStatus(listener) {
      statusListeners.push(listener);
      listener(connected);
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      if (heartbeat) clearInterval(heartbeat);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
