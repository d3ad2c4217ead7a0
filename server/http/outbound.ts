/**
 * The one outbound HTTP client (ARCHITECTURE.md §6): webhooks, automation HTTP steps, store
 * and SMS providers all call out through it. It refuses private, loopback, link-local and
 * other non-public addresses unless configuration allows them (OUTBOUND_ALLOW_PRIVATE), checks
 * the address actually connected to (the check is in the socket's DNS lookup, so a name that
 * resolves to a public address at first and a private one later is still refused), times out,
 * and never follows redirects.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";

export class OutboundRefused extends Error {}

/**
 * Why a call got no answer, in words for a person, said after "… could not be reached: ": the
 * system's codes (ENOTFOUND, ECONNREFUSED) never reach a screen. A refusal of this client's
 * (OutboundRefused) is already in words.
 *
 * @example
 * unreachableWords(Object.assign(new Error("getaddrinfo ENOTFOUND x.test"), { code: "ENOTFOUND" }));
 * // "no host of that name was found"
 */
export function unreachableWords(error: unknown): string {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME")
    return "no host of that name was found";
  if (code === "ECONNREFUSED") return "it refused the connection";
  if (code === "ECONNRESET" || code === "EPIPE") return "it closed the connection";
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return "the network has no way to it";
  if (code === "ETIMEDOUT") return "it did not answer in time";
  if (code?.startsWith("CERT_") || code?.includes("CERT") || code === "DEPTH_ZERO_SELF_SIGNED_CERT")
    return "its certificate could not be verified";
  const message = error instanceof Error ? error.message : String(error);
  if (/timed out|No answer within/i.test(message)) return "it did not answer in time";
  if (/socket hang up/i.test(message)) return "it closed the connection";
  // A message still holding a system code says nothing to a person: say what is known.
  if (/\bE[A-Z]{3,}\b/.test(message)) return "the connection failed";
  return message;
}

export interface OutboundOptions {
  allowPrivate: boolean;
  /** Whole request, connect to last byte (default 10 s). */
  timeoutMs?: number;
  /** Most bytes of the answer kept (default 64 KiB); the rest is dropped. */
  maxBodyBytes?: number;
}

export interface OutboundRequest {
  /** HTTP's, and WebDAV's reads (CalDAV). */
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "PROPFIND" | "REPORT";
  headers?: Record<string, string>;
  body?: string;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Whether an IP address is one the public internet routes (not private, loopback, link-local, …). */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) {
    const [a, b] = address.split(".").map(Number);
    if (a === 0 || a === 10 || a === 127) return false;
    if (a === 100 && b >= 64 && b <= 127) return false; // carrier-grade NAT
    if (a === 169 && b === 254) return false; // link-local, cloud metadata
    if (a === 172 && b >= 16 && b <= 31) return false;
    if (a === 192 && b === 168) return false;
    if (a === 192 && b === 0) return false;
    if (a === 198 && (b === 18 || b === 19)) return false;
    if (a >= 224) return false; // multicast, reserved, broadcast
    return true;
  }
  if (version === 6) {
    const groups = ipv6Groups(address);
    if (!groups) return false;
    const embedded = () => `${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`;
    const zeros = (n: number) => groups.slice(0, n).every((g) => g === 0);
    if (zeros(8) || (zeros(7) && groups[7] === 1)) return false; // unspecified, loopback
    // IPv4 inside IPv6, however written (::ffff:127.0.0.1 and ::ffff:7f00:1 alike): the IPv4 rules.
    if (zeros(5) && groups[5] === 0xffff) return isPublicAddress(embedded()); // mapped
    if (zeros(4) && groups[4] === 0xffff && groups[5] === 0) return isPublicAddress(embedded()); // translated
    if (zeros(6)) return isPublicAddress(embedded()); // compatible (deprecated)
    if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0))
      return isPublicAddress(embedded()); // NAT64
    if (groups[0] === 0x2002)
      return isPublicAddress(`${groups[1] >> 8}.${groups[1] & 255}.${groups[2] >> 8}.${groups[2] & 255}`); // 6to4
    if ((groups[0] & 0xfe00) === 0xfc00) return false; // unique local
    if ((groups[0] & 0xffc0) === 0xfe80) return false; // link-local
    if ((groups[0] & 0xff00) === 0xff00) return false; // multicast
    return true;
  }
  return false;
}

/**
 * The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 read as two
 * groups, a zone dropped), or null when it is not one.
 *
 * @example
 * ipv6Groups("::ffff:127.0.0.1"); // [0, 0, 0, 0, 0, 65535, 32512, 1]
 */
export function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail, ...rest] = text.split("::");
  if (rest.length) return null;
  const part = (t: string | undefined) => (t ? t.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<number>(tail === undefined ? 0 : missing).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : null;
}

const REFUSED = "This address is private, loopback or link-local, which outbound calls may not reach";

/** A DNS lookup that answers only public addresses (or any, when allowed). */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 4);
      const list = addresses as LookupAddress[];
      const allowed = allowPrivate ? list : list.filter((a) => isPublicAddress(a.address));
      if (!allowed.length) return callback(new OutboundRefused(REFUSED), "", 4);
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      return callback(null, allowed[0].address, allowed[0].family);
    });
  };
}

/** Why `target` may not be called, in words, or undefined (for checking a URL when it is saved). */
export async function outboundProblem(target: string, allowPrivate: boolean): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return "must be a full URL such as https://example.com/hook";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must start with http:// or https://";
  if (url.username || url.password) return "must not hold a user name or password";
  if (allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return isPublicAddress(host) ? undefined : REFUSED.replace("This address", "The address");
  const found = await new Promise<LookupAddress[]>((resolve) =>
    dnsLookup(host, { all: true }, (err, addresses) => resolve(err ? [] : addresses)),
  );
  if (!found.length) return "names a host that cannot be found";
  return found.some((a) => !isPublicAddress(a.address))
    ? REFUSED.replace("This address", "The host's address")
    : undefined;
}

const withoutHost = (headers: Record<string, string> | undefined) =>
  Object.fromEntries(Object.entries(headers ?? {}).filter(([name]) => name.toLowerCase() !== "host"));

/** Calls `target`; answers its status, headers and (capped) body. Redirects are answered, never followed. */
export async function outboundCall(
  target: string,
  request: OutboundRequest,
  options: OutboundOptions,
): Promise<OutboundResponse> {
  const url = new URL(target);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new OutboundRefused("Only http and https URLs may be called");
  if (url.username || url.password) throw new OutboundRefused("A URL may not hold a user name or password");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !options.allowPrivate && !isPublicAddress(host)) throw new OutboundRefused(REFUSED);
  try {
    return await send(url, request, options, true);
  } catch (error) {
    if (!(error instanceof StaleConnection)) throw error;
    // The kept-alive connection was closed by the other side as we sent on it: the request
    // never reached it. Once more, on a connection of its own.
    return send(url, request, options, false).catch((again: unknown) => {
      throw again instanceof StaleConnection ? again.cause : again;
    });
  }
}

/**
 * A request sent on a kept-alive connection that the other side closed before answering (a
 * server closes connections idle past its keep-alive timeout, and one may close just as the
 * next request leaves). Raised only for idempotent methods: sent again, they change nothing
 * twice. A POST that met a closed connection may have reached the server; it is not retried.
 */
class StaleConnection extends Error {}

const IDEMPOTENT: ReadonlySet<string> = new Set(["GET", "PUT", "DELETE", "PROPFIND", "REPORT"]);

function send(
  url: URL,
  request: OutboundRequest,
  options: OutboundOptions,
  pooled: boolean,
): Promise<OutboundResponse> {
  const client = url.protocol === "https:" ? https : http;
  const maxBody = options.maxBodyBytes ?? 64 * 1024;
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = client.request(
      url,
      {
        method: request.method,
        // The target's own Host, never a caller's (which could name another site on its server).
        headers: { "user-agent": "Atelier", ...withoutHost(request.headers) },
        lookup: guardedLookup(options.allowPrivate),
        timeout: options.timeoutMs ?? 10_000,
        // false: a connection of this request's own, never a kept-alive one.
        ...(pooled ? {} : { agent: false }),
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (size < maxBody) chunks.push(chunk.subarray(0, maxBody - size));
          size += chunk.length;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    const deadline = setTimeout(
      () => req.destroy(new Error(`No answer within ${options.timeoutMs ?? 10_000} ms`)),
      options.timeoutMs ?? 10_000,
    );
    req.on("close", () => clearTimeout(deadline));
    req.on("timeout", () => req.destroy(new Error("The connection timed out")));
    req.on("error", (error: NodeJS.ErrnoException) => {
      const closed = error.code === "ECONNRESET" || error.code === "EPIPE";
      if (closed && req.reusedSocket && !answered && IDEMPOTENT.has(request.method))
        reject(new StaleConnection(error.message, { cause: error }));
      else reject(error);
    });
    req.end(request.body);
  });
}

const FETCH_METHODS: ReadonlySet<string> = new Set([
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "PROPFIND",
  "REPORT",
]);

/**
 * A `fetch` over {@link outboundCall}, for libraries that take one (tsdav for CalDAV): the same
 * address policy, timeout and body cap; string bodies only; redirects answered, never followed.
 *
 * @example
 * const fetch = outboundFetch({ allowPrivate: config.outboundAllowPrivate, timeoutMs: 15_000 });
 * await fetch("https://caldav.example.com/", { method: "PROPFIND", body: xml });
 */
export function outboundFetch(options: OutboundOptions): typeof fetch {
  return async (input, init = {}) => {
    const target = input instanceof Request ? input.url : String(input);
    const method = (init.method ?? "GET").toUpperCase();
    if (!FETCH_METHODS.has(method)) throw new OutboundRefused(`The ${method} method may not be called`);
    if (init.body != null && typeof init.body !== "string") throw new TypeError("Only text bodies are sent");
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const answer = await outboundCall(
      target,
      { method: method as OutboundRequest["method"], headers, body: init.body ?? undefined },
      options,
    );
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) answerHeaders.append(name, v);
    }
    // A Response may not carry a body with these statuses, nor be made with one below 200.
    const bodyless = [101, 204, 205, 304].includes(answer.status) || answer.status < 200;
    const response = new Response(bodyless ? null : answer.body, {
      status: answer.status < 200 ? 502 : answer.status,
      headers: answerHeaders,
    });
    Object.defineProperty(response, "url", { value: target });
    return response;
  };
}
