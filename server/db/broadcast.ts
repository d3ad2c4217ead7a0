/**
 * Messages to every server instance on one database: PostgreSQL LISTEN/NOTIFY when several
 * instances may share it, in-process delivery on PGlite (one process by construction).
 * Used to forget cached sessions everywhere at once (server/auth/principal-cache.ts) and to
 * fan socket events out to every instance (server/realtime/cluster-adapter.ts).
 *
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more, so a longer message is sent as
 * numbered parts by one statement: one transaction, whose notifications arrive together and
 * in order, or not at all. Listeners put the parts back together.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";

export type Handler = (payload: string) => void;

export interface Broadcast {
  /** Delivers to this instance's handlers at once, and to other instances' soon after. */
  publish(channel: string, payload: string): Promise<void>;
  /**
   * `publish` for a message that only says "something changed" (a cache to clear): delivered
   * here at once, every time; to the other instances by as few NOTIFYs as keep every change
   * told (`changeNotices`). Resolves once a NOTIFY sent after this call went out.
   */
  notice(channel: string, payload: string): Promise<void>;
  /** Returns a function that removes the handler. */
  subscribe(channel: string, handler: Handler): () => void;
  /** Called with false while other instances' messages may be missed, true when they flow again. */
  onStatus(listener: (connected: boolean) => void): void;
  close(): Promise<void>;
}

/** Channel names are SQL identifiers we choose; payloads are ours too, but bound anyway. */
const CHANNEL = /^[a-z_][a-z0-9_]*$/;

/** PostgreSQL's bound on one NOTIFY payload is "shorter than 8000 bytes". */
const NOTIFY_MAX_BYTES = 7999;
/**
 * Largest message `publish` takes. Messages carry ids and small records, never file
 * contents; the bound keeps a mistake from filling the server's notification queue.
 */
export const BROADCAST_MAX_BYTES = 1024 * 1024;

/**
 * Cuts `text` into pieces of at most `maxBytes` bytes of UTF-8, never inside a character
 * (a lone surrogate counts as the 3 bytes of the U+FFFD it is sent as).
 *
 * @example
 * splitUtf8("aé€", 3); // ["aé", "€"]
 */
export function splitUtf8(text: string, maxBytes: number): string[] {
  const parts: string[] = [];
  let start = 0;
  let bytes = 0;
  let index = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) {
      parts.push(text.slice(start, index));
      start = index;
      bytes = 0;
    }
    bytes += size;
    index += char.length;
  }
  parts.push(text.slice(start));
  return parts;
}

class Local {
  readonly handlers = new Map<string, Handler[]>();

  deliver(channel: string, payload: string) {
    // A copy: a handler may remove itself (or another) while it runs.
    for (const handler of [...(this.handlers.get(channel) ?? [])]) handler(payload);
  }

  add(channel: string, handler: Handler): boolean {
    if (!CHANNEL.test(channel)) throw new Error(`Bad broadcast channel: ${channel}`);
    const list = this.handlers.get(channel);
    if (list) list.push(handler);
    else this.handlers.set(channel, [handler]);
    return !list;
  }

  /** The channel stays LISTENed (cheap, and a handler may come back); only delivery stops. */
  remover(channel: string, handler: Handler): () => void {
    return () => {
      const list = this.handlers.get(channel);
      const at = list?.indexOf(handler) ?? -1;
      if (list && at >= 0) list.splice(at, 1);
    };
  }
}

const tooLong = (channel: string, bytes: number) =>
  new Error(`Broadcast on ${channel} too long: ${bytes} bytes, at most ${BROADCAST_MAX_BYTES}`);

/** How long a "changed" notice waits for more changes to tell with it, ms (as socket events do). */
export const NOTICE_WINDOW_MS = 10;

/**
 * Sends "changed" notices to the other instances without one NOTIFY per change. Every write of
 * a product, say, clears the CMS delivery caches: one NOTIFY each doubled the statements of a
 * write and took a second pooled connection per request. A notice goes NOTICE_WINDOW_MS after
 * the change that asked for it, telling every change made until it is sent; a change made
 * while one is on its way (it may have been sent before that change was committed) gets the
 * next, which goes once the one on its way is done. So at most one NOTIFY per channel and
 * message is on its way, and one waits.
 */
export function changeNotices(
  send: (channel: string, payload: string) => Promise<void>,
  windowMs = NOTICE_WINDOW_MS,
) {
  const waves = new Map<string, { waiting: Promise<void> | null; sending: Promise<void> | null }>();
  return (channel: string, payload: string): Promise<void> => {
    const key = `${channel}|${payload}`;
    let wave = waves.get(key);
    if (!wave) {
      wave = { waiting: null, sending: null };
      waves.set(key, wave);
    }
    // Not sent yet: it goes after this change, and tells it too.
    if (wave.waiting) return wave.waiting;
    const current = wave;
    current.waiting = (current.sending ?? Promise.resolve())
      .catch(() => {})
      .then(() => new Promise((resolve) => setTimeout(resolve, windowMs)))
      .then(() => {
        current.waiting = null;
        const sending: Promise<void> = send(channel, payload).finally(() => {
          if (current.sending === sending) current.sending = null;
        });
        current.sending = sending;
        return sending;
      });
    return current.waiting;
  };
}

export function localBroadcast(): Broadcast {
  const local = new Local();
  const publish = async (channel: string, payload: string) => {
    const bytes = Buffer.byteLength(payload);
    if (bytes > BROADCAST_MAX_BYTES) throw tooLong(channel, bytes);
    local.deliver(channel, payload);
  };
  return {
    publish,
    // One process: nobody else to tell.
    notice: publish,
    subscribe(channel, handler) {
      local.add(channel, handler);
      return local.remover(channel, handler);
    },
    // One process, no other instance to miss: connected from the start, and always.
    onStatus: (listener) => listener(true),
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
  /** Sends a statement on the current listener connection after the ones before it. */
  let sendOn: (text: string) => Promise<unknown> = () => Promise.resolve();
  let closed = false;
  let connected = false;
  let retry: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  /** Parts of long messages received so far, by `sender:message`. */
  const pending = new Map<string, { parts: string[]; missing: number }>();

  /** `sender|payload`, or `sender:message:index:count|part` for a part of a long one. */
  const receive = (channel: string, text: string) => {
    const bar = text.indexOf("|");
    if (bar < 0) return;
    const [sender, message, index, count] = text.slice(0, bar).split(":");
    if (sender === self) return; // ours: delivered locally already
    if (message === undefined) return local.deliver(channel, text.slice(bar + 1));
    const at = Number(index);
    const total = Number(count);
    if (!Number.isInteger(at) || !Number.isInteger(total) || at < 0 || at >= total) return;
    const key = `${sender}:${message}`;
    const entry = pending.get(key) ?? { parts: new Array<string>(total), missing: total };
    pending.set(key, entry);
    if (entry.parts[at] === undefined) entry.missing--;
    entry.parts[at] = text.slice(bar + 1);
    if (entry.missing > 0) return;
    pending.delete(key);
    local.deliver(channel, entry.parts.join(""));
  };

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
    // One statement at a time on the listener: a LISTEN for a new channel may come while the
    // heartbeat or another LISTEN is running (pg queues them, but that queue is deprecated).
    let last: Promise<unknown> = Promise.resolve();
    sendOn = (text) => {
      const next = last.then(() => c.query(text));
      last = next.catch(() => {});
      return next;
    };
    let listening = false;
    const lost = (error: Error) => {
      if (client !== c) return;
      client = null;
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      // The rest of a half-received message went by while nobody listened.
      pending.clear();
      setStatus(false);
      // Failed attempts while the database is down are retried quietly (the pool's errors
      // and the 503 answers tell that story); the loss of a working listener is news.
      if (listening && !closed) onError?.(error);
      c.end().catch(() => {});
      if (!closed) retry = setTimeout(connect, retryMs);
    };
    c.on("error", lost);
    c.on("end", () => lost(new Error("Connection terminated")));
    c.on("notification", (n) => receive(n.channel, n.payload ?? ""));
    try {
      await c.connect();
      for (const channel of local.handlers.keys()) await sendOn(`LISTEN ${channel}`);
      if (client !== c) return;
      heartbeat = setInterval(() => {
        sendOn("select 1").catch((error: Error) => lost(error));
      }, heartbeatMs);
      heartbeat.unref();
      listening = true;
      setStatus(true);
    } catch (error) {
      lost(error as Error);
    }
  };

  /** Sends a message to the other instances (this one has had it). */
  const notify = async (channel: string, payload: string): Promise<void> => {
    const whole = `${self}|${payload}`;
    if (Buffer.byteLength(whole) <= NOTIFY_MAX_BYTES) {
      await pool.query("select pg_notify($1, $2)", [channel, whole]);
      return;
    }
    // Room for the longest head: `uuid:uuid:index:count|`.
    const chunks = splitUtf8(payload, NOTIFY_MAX_BYTES - 100);
    const message = randomUUID();
    const parts = chunks.map((chunk, i) => `${self}:${message}:${i}:${chunks.length}|${chunk}`);
    await pool.query("select pg_notify($1, part) from unnest($2::text[]) as part", [channel, parts]);
  };
  const noticeOthers = changeNotices(notify);
  const deliverHere = (channel: string, payload: string) => {
    const bytes = Buffer.byteLength(payload);
    if (bytes > BROADCAST_MAX_BYTES) throw tooLong(channel, bytes);
    local.deliver(channel, payload);
  };

  return {
    async publish(channel, payload) {
      deliverHere(channel, payload);
      await notify(channel, payload);
    },
    async notice(channel, payload) {
      deliverHere(channel, payload);
      await noticeOthers(channel, payload);
    },
    subscribe(channel, handler) {
      const isNew = local.add(channel, handler);
      const remove = local.remover(channel, handler);
      if (!isNew) return remove;
      if (client && connected) sendOn(`LISTEN ${channel}`).catch(() => {});
      else if (!client && !retry) void connect();
      return remove;
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
