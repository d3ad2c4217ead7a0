/**
 * Secrets never reach a log line. A route names the secrets it carries in its config
 * (`config: { secrets: { params: ["token"] } }`, see `RouteSecrets`), and the logger:
 * - writes each request's URL with those path parameters and query values replaced by
 *   `[redacted]` (`SecretRoutes`, filled from the route table as routes are added);
 * - scrubs every value the request carries in those places (and in declared body fields and
 *   headers) from whatever else a request's log lines hold: error messages, stacks, fields
 *   (log-secrets.ts);
 * - never writes the headers that carry credentials, should a serializer ever print headers
 *   (`SECRET_HEADERS`, pino `redact`).
 *
 * The URL rules are matched against every request, routed or not: a secret in a mistyped path
 * (a 404), a wrong method or a malformed URL is refused before any route is known, and it is
 * the same secret. A reset link (`/manage/resetpassword/{id}`, or the older
 * `/manage/resetpassword/{length}/{id}`) is a page of the admin app, not a route of its own,
 * so it keeps a path rule: it signs whoever holds it in as its user.
 */
import type { FastifyRequest, FastifyServerOptions } from "fastify";

/** What a route's requests carry that must not be logged. */
export interface RouteSecrets {
  /** Path parameters holding a secret (`"*"`: a wildcard route's whole tail). */
  params?: readonly string[];
  /** Query parameters holding a secret. */
  query?: readonly string[];
  /** Fields of a JSON body holding a secret (bodies are never logged; errors are scrubbed). */
  body?: readonly string[];
  /** Request headers holding a secret (lower case; each must be in `SECRET_HEADERS`). */
  headers?: readonly string[];
  /**
   * Parameter names that look like secrets and are not (the id of a token, a preference key):
   * said here so that the route-table test knows the route was looked at.
   */
  notSecret?: readonly string[];
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The secrets this route's requests carry; the logger redacts them. */
    secrets?: RouteSecrets;
  }
}

/** Path segments followed by a secret: everything after them is replaced. */
export const SECRET_PATH_SEGMENTS = ["resetpassword"] as const;

/** Headers that carry credentials: never written, whichever route they came to. */
export const SECRET_HEADERS = [
  "authorization",
  "cookie",
  "proxy-authorization",
  "x-atelier-preview",
  "x-atelier-resume",
  "x-atelier-store-hook",
  "x-twilio-signature",
] as const;

export const REDACTED = "[redacted]";

const SECRET_PATH = new RegExp(`(/(?:${SECRET_PATH_SEGMENTS.join("|")}))(?:/|%2f).*$`, "i");

/** One segment of a route's path, as the matcher reads it. */
type Segment = { kind: "static"; text: string } | { kind: "param"; secret: boolean } | { kind: "rest" };

/** A route's path up to its last secret segment (nothing after it matters to the match). */
interface SecretPattern {
  segments: Segment[];
  /** The wildcard's tail is the secret. */
  secretRest: boolean;
}

/** `decodeURIComponent` that answers the text as is when it does not decode. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const isDot = (part: string, dots: string) => decoded(part) === dots;

/** Indexes of a path's segments as a client resolves them: `.` dropped, `..` drops the one before. */
function dotsResolved(raw: readonly string[]): number[] {
  const at: number[] = [];
  raw.forEach((part, i) => {
    if (!part || isDot(part, ".")) return;
    if (isDot(part, "..")) at.pop();
    else at.push(i);
  });
  return at;
}

/** Indexes of a path's segments other than empty, `.` and `..` ones. */
const dotsSkipped = (raw: readonly string[]): number[] =>
  raw.flatMap((part, i) => (part && !isDot(part, ".") && !isDot(part, "..") ? [i] : []));

/** A route path's segments; empty ones are skipped, as `//a` and `/a/` name `/a`'s segments too. */
function segmentsOf(url: string, secretParams: ReadonlySet<string>): Segment[] {
  return url
    .split("/")
    .filter(Boolean)
    .map((part): Segment => {
      if (part === "*") return { kind: "rest" };
      if (!part.includes(":")) return { kind: "static", text: part.toLowerCase() };
      // `:name`, or a segment mixing text and parameters (`:from-:to`, `:id.json`): the whole
      // segment is the secret when any parameter in it is.
      const names = [...part.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
      return { kind: "param", secret: names.some((n) => secretParams.has(n)) };
    });
}

/**
 * The secret rules of one app's routes, filled as routes are added; `redact` applies them (and
 * the reset-link rule) to any URL.
 *
 * @example
 * const routes = new SecretRoutes();
 * routes.add("/public/proposals/:token/accept", { params: ["token"] });
 * routes.redact("/public/proposals/abc123/accept?x=1") // "/public/proposals/[redacted]/accept?x=1"
 */
export class SecretRoutes {
  private readonly patterns = new Map<string, SecretPattern>();
  private readonly queryNames = new Set<string>();

  add(url: string, secrets: RouteSecrets): void {
    for (const name of secrets.query ?? []) this.queryNames.add(name.toLowerCase());
    const params = new Set(secrets.params ?? []);
    if (!params.size) return;
    const segments = segmentsOf(url, params);
    const secretRest = params.has("*") && segments.some((s) => s.kind === "rest");
    const last = secretRest
      ? segments.length - 1
      : segments.findLastIndex((s) => s.kind === "param" && s.secret);
    if (last < 0) throw new Error(`${url}: a secret parameter it does not have (${[...params].join(", ")})`);
    const key = `${url}\n${[...params].sort().join(",")}`;
    this.patterns.set(key, { segments: segments.slice(0, last + 1), secretRest });
  }

  /** The URL with every secret of the rules replaced by `[redacted]`. */
  redact(url: string): string {
    const at = url.search(/[?#]/);
    const path = at < 0 ? url : url.slice(0, at);
    const rest = at < 0 ? "" : url.slice(at);
    const redacted = this.redactPath(path);
    const reset = redacted.replace(SECRET_PATH, `$1/${REDACTED}`);
    // A reset page's query goes too: nothing of its URL past the segment is kept.
    return reset !== redacted ? reset : redacted + this.redactQuery(rest);
  }

  private redactPath(path: string): string {
    // An absolute-form request target (`POST http://host/hooks/…`) is routed by its path:
    // the rules read that path, and credentials in the authority go too.
    const origin = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i.exec(path)?.[0] ?? "";
    let raw = path.slice(origin.length).split("/");
    for (const { segments, secretRest } of this.patterns.values()) {
      const fixed = secretRest ? segments.length - 1 : segments.length;
      // The indexes of the segments the rules are matched against (read again for each rule: a
      // wildcard's redaction shortens the path): the non-empty ones, dot segments resolved as
      // a client would (`/a/./b`, `/x/../a/b`) and, apart, merely skipped (`/a/b/s/..`), so a
      // path no route answers still has its secret found.
      const at = [dotsResolved(raw), dotsSkipped(raw)].find(
        (view) =>
          view.length >= fixed &&
          !(secretRest && view.length === fixed) &&
          segments
            .slice(0, fixed)
            .every((s, i) => s.kind !== "static" || decoded(raw[view[i]]).toLowerCase() === s.text),
      );
      if (!at) continue;
      segments.forEach((s, i) => {
        if (s.kind === "param" && s.secret) raw[at[i]] = REDACTED;
      });
      if (secretRest) raw = [...raw.slice(0, at[fixed]), REDACTED];
    }
    return origin.replace(/\/\/[^/@]*@/, `//${REDACTED}@`) + raw.join("/");
  }

  /** `?a=1&token=x` → `?a=1&token=[redacted]` for every declared query name (any route's). */
  private redactQuery(rest: string): string {
    if (!rest.startsWith("?") || !this.queryNames.size) return rest;
    const hash = rest.indexOf("#");
    const query = hash < 0 ? rest.slice(1) : rest.slice(1, hash);
    const pairs = query.split("&").map((pair) => {
      const eq = pair.indexOf("=");
      const name = decoded((eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, " "))
        .replace(/\[.*$/, "")
        .toLowerCase();
      return this.queryNames.has(name) && eq >= 0 ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    });
    return `?${pairs.join("&")}${hash < 0 ? "" : rest.slice(hash)}`;
  }
}

const resetOnly = new SecretRoutes();

/**
 * A URL with the reset link's secret redacted (query string included). `SecretRoutes.redact`
 * applies it with the routes' own rules.
 *
 * @example
 * redactUrl("/manage/resetpassword/12/abc") // "/manage/resetpassword/[redacted]"
 */
export function redactUrl(url: string): string {
  return resetOnly.redact(url);
}

/** Fastify's default request serializer, with the URL redacted by these rules. */
export function requestSerializer(routes: SecretRoutes) {
  return (request: FastifyRequest) => ({
    method: request.method,
    url: routes.redact(request.url),
    version: [request.headers?.["accept-version"]].flat()[0],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  });
}

type LoggerOption = FastifyServerOptions["logger"];
type LoggerOptions = Exclude<LoggerOption, boolean | undefined>;

/**
 * The app's logger option with the redacting request serializer, the header redaction and the
 * scrubbing hook (log-secrets.ts) installed, whatever the caller asked for (a level, a
 * destination stream, `true`); `false` stays off.
 */
export function withRedaction(
  logger: LoggerOption,
  routes = new SecretRoutes(),
  logMethod?: NonNullable<LoggerOptions["hooks"]>["logMethod"],
): LoggerOption {
  if (!logger) return logger;
  const options: LoggerOptions = logger === true ? {} : logger;
  const given = options.redact;
  const paths = SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`]);
  return {
    ...options,
    serializers: { ...options.serializers, req: requestSerializer(routes) },
    redact: Array.isArray(given)
      ? [...given, ...paths]
      : given
        ? { ...given, paths: [...given.paths, ...paths] }
        : { paths, censor: REDACTED },
    ...(logMethod ? { hooks: { ...options.hooks, logMethod } } : {}),
  };
}
