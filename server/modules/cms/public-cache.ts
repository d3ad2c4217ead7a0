/**
 * The delivery API's answers, kept until published content could have changed, on any
 * instance. An answer depends on entries, types, domains, navigations, assets (media fields)
 * and products (relations to them); a committed change to any of them clears every kept answer
 * here and, through the database broadcast, on the other instances. The instance that makes a
 * change hears it as a local event (the engine's resource events, the asset manager's events,
 * the type registry's and the navigations' own calls) and tells the others.
 *
 * A kept answer is its JSON as bytes with its ETag, so a repeat (or a 304) costs no query and
 * no serialisation. Domains are kept the same way. While the broadcast is not connected nothing
 * is kept: a change elsewhere could be missed. An answer computed while a change landed is not
 * kept (the generation moved on), so a clear is never undone by a slow request.
 */
import { createHash } from "node:crypto";
import type { AppContext } from "../../context";
import type { TypeRegistry } from "./type-registry";

const CHANNEL = "atelier_cms_public";
/** Answers kept at most, and their bytes at most; the oldest go first. */
const MAX_ANSWERS = 2000;
const MAX_BYTES = 32 * 1024 * 1024;

export interface KeptAnswer {
  etag: string;
  body: Buffer;
}

/** Resources whose changes can change a delivery answer (besides entries, `entries/<type>`). */
const READ_BY_DELIVERY = new Set(["domains", "products"]);

export class PublicCache {
  private readonly answers = new Map<string, KeptAnswer>();
  private readonly domains = new Map<string, unknown>();
  private bytes = 0;
  private listening = false;
  /** Moves on at every clear; an answer computed across a clear is not kept. */
  generation = 0;

  constructor(
    private readonly ctx: AppContext,
    registry: TypeRegistry,
  ) {
    ctx.broadcast.subscribe(CHANNEL, () => this.clear());
    registry.onChange(() => this.clear());
    ctx.broadcast.onStatus((connected) => {
      this.listening = connected;
      this.clear();
    });
    ctx.events.subscribe((change) => {
      if (change.resource.startsWith("entries/") || READ_BY_DELIVERY.has(change.resource))
        void this.changed();
    });
    ctx.damEvents.subscribe(() => void this.changed());
  }

  private clear(): void {
    this.generation++;
    this.answers.clear();
    this.domains.clear();
    this.bytes = 0;
  }

  /** Call after a committed change the events do not carry (navigations). */
  async changed(): Promise<void> {
    this.clear();
    try {
      await this.ctx.broadcast.notice(CHANNEL, "changed");
    } catch (error) {
      // The others clear when their broadcast reconnects (onStatus); nothing more to do here.
      this.ctx.log.warn({ err: error }, "CMS delivery cache: other instances not told");
    }
  }

  /** A kept domain row by key (`undefined` when not kept). */
  domain<T>(key: string): T | undefined {
    return this.listening ? (this.domains.get(key) as T | undefined) : undefined;
  }

  keepDomain(key: string, row: unknown, generation: number): void {
    if (this.listening && generation === this.generation) this.domains.set(key, row);
  }

  get(key: string): KeptAnswer | undefined {
    if (!this.listening) return undefined;
    const kept = this.answers.get(key);
    if (kept) {
      // Most recently used last: the oldest are dropped first.
      this.answers.delete(key);
      this.answers.set(key, kept);
    }
    return kept;
  }

  /** The answer as bytes with its ETag, kept when nothing changed since `generation`. */
  keep(key: string, value: unknown, generation: number): KeptAnswer {
    const body = Buffer.from(JSON.stringify(value));
    const answer = { etag: `"${createHash("sha1").update(body).digest("base64url")}"`, body };
    if (!this.listening || generation !== this.generation || body.length > MAX_BYTES / 8) return answer;
    this.answers.set(key, answer);
    this.bytes += body.length;
    for (const [oldest, kept] of this.answers) {
      if (this.answers.size <= MAX_ANSWERS && this.bytes <= MAX_BYTES) break;
      this.answers.delete(oldest);
      this.bytes -= kept.body.length;
    }
    return answer;
  }
}
