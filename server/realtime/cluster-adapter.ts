/**
 * socket.io fan-out across instances over the database's own message bus
 * (server/db/broadcast.ts: PostgreSQL LISTEN/NOTIFY), so N instances need PostgreSQL alone.
 *
 * socket.io-adapter's ClusterAdapterWithHeartbeat does the socket.io side (rooms, acks,
 * fetchSockets, serverSideEmit, a count of live instances); this class only carries its
 * messages, one channel per namespace. Why not `@socket.io/postgres-adapter`: it would hold a
 * second LISTEN connection per instance from the request pool, with a reconnect loop of its
 * own and no check of a silently dead connection, and a table (plus a cleanup timer) for
 * payloads over NOTIFY's 8000 bytes. The broadcast already has all of that solved once
 * (re-LISTEN after a restart, a heartbeat query, long messages sent in parts in one
 * transaction); sharing it keeps one listener and one recovery path per instance.
 */
import { createHash } from "node:crypto";
import type { Namespace } from "socket.io";
import {
  type BroadcastOptions,
  type ClusterAdapterOptions,
  ClusterAdapterWithHeartbeat,
  type ClusterMessage,
  type ClusterResponse,
  MessageType,
  type Offset,
} from "socket.io-adapter";
import type { Broadcast } from "../db/broadcast";

export interface BroadcastAdapterOptions extends ClusterAdapterOptions {
  /**
   * Told when a message could not be sent to the other instances (database down); once per
   * run of failures. This instance's own sockets get the event regardless.
   */
  onError?: (error: Error) => void;
}

/** The broadcast channel of a namespace: `/` → `socket_io`, `/dam` → `socket_io_dam`. */
export function channelOf(namespace: string): string {
  if (namespace === "/") return "socket_io";
  if (/^\/[a-z0-9_]{1,40}$/.test(namespace)) return `socket_io_${namespace.slice(1)}`;
  // Other names are not SQL identifiers: a digest keeps them apart.
  return `socket_io_${createHash("sha256").update(namespace).digest("hex").slice(0, 24)}`;
}

/** Binary data (a socket.io event may carry Buffers) as base64, since messages are JSON text. */
const BINARY = "$binary";

/** Whether a value holds binary data anywhere (the walk stops at MAX_WALK_DEPTH: assume it does). */
function hasBinary(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== "object") return false;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return true;
  if (depth >= MAX_WALK_DEPTH) return true;
  if (Array.isArray(value)) return value.some((v) => hasBinary(v, depth + 1));
  for (const key in value) {
    if (hasBinary((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

const MAX_WALK_DEPTH = 32;

function encode(message: ClusterMessage | ClusterResponse): string {
  // A replacer makes JSON.stringify several times slower: only binary data needs it.
  if (!hasBinary(message)) return JSON.stringify(message);
  return JSON.stringify(message, function (key, value) {
    // `this[key]` is the value before Buffer#toJSON turned it into an array of numbers.
    const raw: unknown = (this as Record<string, unknown>)[key];
    if (raw instanceof ArrayBuffer) return { [BINARY]: Buffer.from(raw).toString("base64") };
    if (ArrayBuffer.isView(raw)) {
      return { [BINARY]: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("base64") };
    }
    return value;
  });
}

/** A message, or a batch of them (a JSON list), as `send` wrote it. */
function decode(payload: string): ClusterMessage | ClusterMessage[] {
  // A reviver makes JSON.parse several times slower: only messages with binary data need it.
  if (!payload.includes(`"${BINARY}"`)) return JSON.parse(payload);
  return JSON.parse(payload, (_key, value) => {
    if (
      value &&
      typeof value === "object" &&
      typeof value[BINARY] === "string" &&
      Object.keys(value).length === 1
    ) {
      return Buffer.from(value[BINARY], "base64");
    }
    return value;
  });
}

/**
 * Messages go to the other instances in batches: one NOTIFY for all those emitted within
 * BATCH_WINDOW_MS of the first (or while the previous NOTIFY was on its way), up to about
 * BATCH_BYTES (under NOTIFY's 8000, so a batch stays one statement). A NOTIFY is a transaction
 * that every listener wakes for: under a burst of writes, one per write cost the database more
 * than the writes' own commits. The window is the most an event waits to reach another
 * instance; this instance's sockets get it at once.
 */
const BATCH_WINDOW_MS = 10;
const BATCH_BYTES = 7000;

/**
 * What doPublish answers: socket.io only reads an offset (for connection state recovery, which
 * is off) and logs a rejection at debug level. A failed NOTIFY is reported through `onError`.
 */
const PUBLISHED: Promise<Offset> = Promise.resolve("");
const SENT: Promise<void> = Promise.resolve();

class BroadcastAdapter extends ClusterAdapterWithHeartbeat {
  private readonly channel: string;
  private readonly unsubscribe: () => void;
  private failing = false;
  /** Messages (encoded) waiting for the next NOTIFY, in emit order (see BATCH_WINDOW_MS). */
  private readonly queue: string[] = [];
  private flushing = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** The payload being published right now: the bus hands it back to us at once, unread. */
  private own: string | null = null;

  constructor(
    nsp: Namespace,
    private readonly bus: Broadcast,
    private readonly options: BroadcastAdapterOptions,
  ) {
    super(nsp, options);
    this.channel = channelOf(nsp.name);
    // Our own messages come back too (the broadcast delivers locally); onMessage skips
    // them by the adapter's uid.
    this.unsubscribe = bus.subscribe(this.channel, (payload) => {
      // Our own payload, delivered locally while we publish it: onMessage would only drop it.
      if (payload === this.own) return;
      let decoded: ClusterMessage | ClusterMessage[];
      try {
        decoded = decode(payload);
      } catch (error) {
        return this.options.onError?.(error as Error);
      }
      for (const message of Array.isArray(decoded) ? decoded : [decoded]) this.onMessage(message);
    });
  }

  /**
   * This instance's sockets get the packet at once and in emit order; the other instances
   * in the same order, a NOTIFY later. (ClusterAdapter's own broadcast waits for the NOTIFY
   * before the local sockets, so two emits in a row could reach them swapped.)
   */
  override async broadcast(packet: unknown, opts: BroadcastOptions): Promise<void> {
    if (!opts.flags?.local) {
      this.publish({
        type: MessageType.BROADCAST,
        data: {
          packet,
          opts: { rooms: [...opts.rooms], except: [...(opts.except ?? [])], flags: opts.flags ?? {} },
        },
      });
    }
    // No socket here can receive it (most writes, on an instance without a live list open):
    // skip encoding the packet for nobody.
    const here = opts.rooms.size ? [...opts.rooms].some((room) => this.rooms.has(room)) : this.sids.size > 0;
    if (!here) return;
    // With the `local` flag, ClusterAdapter hands the packet straight to the in-memory adapter.
    await super.broadcast(packet, { ...opts, flags: { ...opts.flags, local: true } });
  }

  // Not async, and no promise per message: every write of every resource comes through here.
  protected override doPublish(message: ClusterMessage): Promise<Offset> {
    this.send(message);
    return PUBLISHED;
  }

  protected override doPublishResponse(_requesterUid: string, response: ClusterResponse): Promise<void> {
    // On the namespace's channel: requests are rare (fetchSockets, acks), and an instance
    // that did not ask ignores the answer (unknown request id).
    this.send(response);
    return SENT;
  }

  private send(message: ClusterMessage | ClusterResponse): void {
    let payload: string;
    try {
      payload = encode(message);
    } catch (error) {
      // Not the write's failure (it is committed): the other instances miss this one event.
      this.options.onError?.(error as Error);
      return;
    }
    this.queue.push(payload);
    if (this.queue.length === 1 && !this.flushing) this.flushLater();
  }

  private flushLater() {
    // Closing: what is left goes now, while the database is still open.
    if (this.closed) {
      void this.flush();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, BATCH_WINDOW_MS);
  }

  /**
   * Publishes what is queued, in order, in batches of up to BATCH_BYTES, one NOTIFY at a time.
   * What came in the meantime goes at once when it fills a batch, else after another window.
   */
  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    do {
      const batch = this.queue.splice(0, this.batchSize());
      // One message as itself (what an instance of an earlier version reads), several as a list.
      const payload = batch.length === 1 ? batch[0] : `[${batch.join(",")}]`;
      try {
        this.own = payload;
        const published = this.bus.publish(this.channel, payload);
        this.own = null;
        await published;
        this.failing = false;
      } catch (error) {
        this.own = null;
        if (!this.failing) this.options.onError?.(error as Error);
        this.failing = true;
      }
    } while (this.queue.length && this.batchSize() < this.queue.length);
    this.flushing = false;
    if (this.queue.length) this.flushLater();
  }

  /** How many of the queued messages fit in one NOTIFY (at least one). */
  private batchSize(): number {
    let bytes = this.queue[0].length;
    let count = 1;
    while (count < this.queue.length && bytes + this.queue[count].length + 1 <= BATCH_BYTES) {
      bytes += this.queue[count].length + 1;
      count++;
    }
    return count;
  }

  override close() {
    this.closed = true;
    super.close(); // tells the other instances this one is gone
    // Now, not after the batch window: the database closes soon after the adapters.
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      void this.flush();
    }
    this.unsubscribe();
  }
}

/**
 * The socket.io `adapter` option for N instances on one database.
 *
 * @example
 * new Server(httpServer, { adapter: broadcastAdapter(database.broadcast, { onError }) });
 */
export function broadcastAdapter(broadcast: Broadcast, options: BroadcastAdapterOptions = {}) {
  // A function, not an arrow: socket.io calls it with `new`; the object it returns is the adapter.
  return function createAdapter(nsp: Namespace) {
    return new BroadcastAdapter(nsp, broadcast, options);
  };
}
