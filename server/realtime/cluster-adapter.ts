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

function encode(message: ClusterMessage | ClusterResponse): string {
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

function decode(payload: string): ClusterMessage {
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
  }) as ClusterMessage;
}

class BroadcastAdapter extends ClusterAdapterWithHeartbeat {
  private readonly channel: string;
  private readonly unsubscribe: () => void;
  private failing = false;
  /** Messages are sent one after the other, so other instances get them in emit order. */
  private sending: Promise<void> = Promise.resolve();

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
      let message: ClusterMessage;
      try {
        message = decode(payload);
      } catch (error) {
        return this.options.onError?.(error as Error);
      }
      this.onMessage(message);
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
    // With the `local` flag, ClusterAdapter hands the packet straight to the in-memory adapter.
    await super.broadcast(packet, { ...opts, flags: { ...opts.flags, local: true } });
  }

  protected override async doPublish(message: ClusterMessage): Promise<Offset> {
    await this.send(message);
    return ""; // no connection state recovery: there is no stored offset to resume from
  }

  protected override async doPublishResponse(
    _requesterUid: string,
    response: ClusterResponse,
  ): Promise<void> {
    // On the namespace's channel: requests are rare (fetchSockets, acks), and an instance
    // that did not ask ignores the answer (unknown request id).
    await this.send(response);
  }

  private send(message: ClusterMessage | ClusterResponse): Promise<void> {
    const payload = encode(message);
    const sent = this.sending.then(async () => {
      try {
        await this.bus.publish(this.channel, payload);
        this.failing = false;
      } catch (error) {
        if (!this.failing) this.options.onError?.(error as Error);
        this.failing = true;
        throw error;
      }
    });
    this.sending = sent.catch(() => {});
    return sent;
  }

  override close() {
    super.close(); // tells the other instances this one is gone
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
