/**
 * A screen's first reads, started by the shell while the app's code is still on its way
 * (issue 28, "the first row within a second"). Without them a screen asks for its data only
 * once its code has loaded and rendered: the requests wait for the code, then the rows for
 * the requests. With them, the answers are there, or on their way, when the screen asks.
 *
 * Which reads a screen makes is learnt, not declared, so any screen (a new entity's list
 * too) gets it with no edit: the GETs the app sends in its first seconds after starting on an
 * address are remembered for that address (localStorage, a few addresses), and the next start
 * there sends them at once. The identity (`/api/users/me`), which every screen behind sign-in
 * reads first, is always sent. The HTTP client (http.ts) answers a GET from a started read of
 * the same URL (once, while fresh, only a 2xx); anything else goes to the server as usual, so
 * a wrong guess costs one request and no mistake.
 */
import { MemoryStorage } from "../src/lib/memory-storage";

/** How long after the start a screen's GETs count as its first reads. */
export const LEARN_MS = 4000;
/** A started read's answer is used this long after it was started, else asked for again. */
export const EARLY_FRESH_MS = 10_000;
/** Reads remembered per address, and addresses remembered. */
export const MAX_READS = 12;
export const MAX_SCREENS = 30;
/**
 * A read the app made on this page this recently is in its cache (react-query keeps an answer
 * 5 minutes after its last screen): a move does not send it again, the screen shows it at once.
 */
export const READ_HERE_MS = 60_000;
/** localStorage key of the remembered reads: `{ [address]: url[] }`, most recent last. */
export const EARLY_READS_KEY = "atelier.earlyReads";

export interface EarlyAnswer {
  status: number;
  data: unknown;
  headers: Record<string, string>;
}

interface Started {
  at: number;
  answer: Promise<EarlyAnswer | null>;
}

export interface EarlyReadsOptions {
  storage: Pick<Storage, "getItem" | "setItem">;
  send: typeof fetch;
  now?: () => number;
}

/** A URL not to remember: one carrying a token or a secret in its query. */
const SECRET_QUERY = /[?&][^=&]*(token|secret|password|key)[^=&]*=/i;

export function createEarlyReads(options: EarlyReadsOptions) {
  const now = options.now ?? (() => Date.now());
  const started = new Map<string, Started>();
  /** When the app last read each URL on this page. */
  const readAt = new Map<string, number>();
  let learning: { address: string; until: number; urls: string[] } | null = null;

  const remembered = (): Record<string, string[]> => {
    try {
      const value = JSON.parse(options.storage.getItem(EARLY_READS_KEY) ?? "{}") as unknown;
      return value && typeof value === "object" && !Array.isArray(value)
        ? (value as Record<string, string[]>)
        : {};
    } catch {
      return {};
    }
  };

  const save = (address: string, urls: string[]) => {
    const all = remembered();
    delete all[address];
    all[address] = urls;
    const addresses = Object.keys(all);
    for (const old of addresses.slice(0, Math.max(0, addresses.length - MAX_SCREENS))) delete all[old];
    try {
      options.storage.setItem(EARLY_READS_KEY, JSON.stringify(all));
    } catch {
      // Storage full or refused: the next start learns again.
    }
  };

  const read = (url: string, token: string): Started => ({
    at: now(),
    answer: options
      .send(url, { headers: { Accept: "application/json", Authorization: `Bearer ${token}` } })
      .then(async (response) => ({
        status: response.status,
        data: response.headers.get("content-type")?.includes("json")
          ? await response.json()
          : await response.text(),
        headers: Object.fromEntries(response.headers.entries()),
      }))
      .catch(() => null),
  });

  return {
    /**
     * At the app's start on `address` (path and query) with a session: sends `always` and the
     * reads remembered for the address, and learns the reads the app makes there.
     */
    start(address: string, token: string, always: readonly string[]): void {
      learning = { address, until: now() + LEARN_MS, urls: [] };
      for (const url of new Set([...always, ...(remembered()[address] ?? [])]))
        started.set(url, read(url, token));
    },

    /**
     * A move inside the app to `address` (a link clicked, {@link startReadsOnLinkClicks}):
     * sends the reads remembered for it that are not on their way already, as a start there
     * does, so the screen's data comes while its code renders, not after (issue 28: a list's
     * first row after a menu click); and learns the reads the app makes there. What the app
     * read on this page a moment ago (the identity, the menu's counts) it has: not sent again.
     */
    moveTo(address: string, token: string): void {
      learning = { address, until: now() + LEARN_MS, urls: [] };
      for (const url of remembered()[address] ?? []) {
        const lastRead = readAt.get(url);
        if (lastRead !== undefined && now() - lastRead <= READ_HERE_MS) continue;
        const early = started.get(url);
        if (!early || now() - early.at > EARLY_FRESH_MS) started.set(url, read(url, token));
      }
    },

    /**
     * The answer of a read started for `url`, taken once; undefined when none was started, or
     * it is stale. Resolves null when it failed to arrive.
     */
    take(url: string): Promise<EarlyAnswer | null> | undefined {
      const early = started.get(url);
      if (!early) return undefined;
      started.delete(url);
      return now() - early.at <= EARLY_FRESH_MS ? early.answer : undefined;
    },

    /** A GET the app sent: one of the address's first reads while they are learnt. */
    sent(url: string): void {
      // A long session reads many URLs: those read too long ago to matter are let go.
      if (readAt.size >= 500)
        for (const [old, at] of readAt) if (now() - at > READ_HERE_MS) readAt.delete(old);
      readAt.delete(url);
      readAt.set(url, now());
      if (!learning) return;
      if (now() > learning.until) {
        learning = null;
        return;
      }
      if (SECRET_QUERY.test(url) || learning.urls.includes(url) || learning.urls.length >= MAX_READS) return;
      learning.urls.push(url);
      save(learning.address, learning.urls);
    },
  };
}

export type EarlyReads = ReturnType<typeof createEarlyReads>;

/** The browser's instance: the shell starts it (src/main.tsx), the HTTP clients use it (http.ts). */
export const earlyReads: EarlyReads = createEarlyReads({
  storage: typeof localStorage === "undefined" ? new MemoryStorage() : localStorage,
  send: (...args) => fetch(...args),
});

/**
 * Starts the remembered reads of an address inside the app (under `base`) as a link to it is
 * clicked (the menu's, a record's): the capture phase comes before the router's own handler,
 * so the reads go out before the screen renders. A click that opens another tab, or a link
 * elsewhere, is left alone.
 */
export function startReadsOnLinkClicks(
  target: Pick<Document, "addEventListener">,
  base: string,
  token: () => string | undefined,
  reads: Pick<EarlyReads, "moveTo"> = earlyReads,
): void {
  target.addEventListener(
    "click",
    (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement) || link.hasAttribute("download")) return;
      if (link.target && link.target !== "_self") return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin || !url.pathname.startsWith(base)) return;
      const bearer = token();
      if (bearer) reads.moveTo(url.pathname + url.search, bearer);
    },
    { capture: true },
  );
}
