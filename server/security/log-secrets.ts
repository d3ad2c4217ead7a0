/**
 * The logger's side of `config.secrets` (redact.ts): every route's declared secrets feed the
 * URL rules, and a request to a route with secrets has its log lines scrubbed of the values it
 * carries — an error whose message or stack quotes the path, a database error quoting a value,
 * a field someone logs later. The URL rules cover the request line; this covers the rest.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, RouteOptions } from "fastify";
import { REDACTED, type RouteSecrets, SECRET_HEADERS, SecretRoutes, withRedaction } from "./redact";

/** Shorter values are not treated as secrets: scrubbing them would blank out ordinary words. */
export const MIN_SECRET_LENGTH = 4;

/** Words that make a parameter's name look like a secret (`token`, `shareToken`, `api_key`). */
export const SECRET_WORDS = [
  "auth",
  "code",
  "credential",
  "credentials",
  "hash",
  "key",
  "otp",
  "passwd",
  "password",
  "secret",
  "sig",
  "signature",
  "token",
] as const;

const VALUES = Symbol("secret values of the request being logged");
type Scrubbable = FastifyBaseLogger & { [VALUES]?: () => string[] };

/** The words of a parameter name: `shareToken`, `share_token` and `share-token` → share, token. */
const wordsOf = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/**
 * The path and query parameter names of a route that look like secrets and that its
 * `config.secrets` neither lists as secret nor as `notSecret`: a route that forgot to say.
 *
 * @example
 * undeclaredSecrets({ url: "/p/:token", config: {} }) // ["token"]
 */
export function undeclaredSecrets(route: {
  url: string;
  config?: { secrets?: RouteSecrets };
  querystring?: unknown;
}): string[] {
  const secrets = route.config?.secrets;
  const said = new Set([
    ...(secrets?.params ?? []),
    ...(secrets?.query ?? []),
    ...(secrets?.notSecret ?? []),
  ]);
  const params = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const schema = route.querystring as { properties?: Record<string, unknown> } | undefined;
  const query = Object.keys(schema?.properties ?? {});
  const looksSecret = (name: string) =>
    wordsOf(name).some((w) => (SECRET_WORDS as readonly string[]).includes(w));
  return [...new Set([...params, ...query])].filter((name) => looksSecret(name) && !said.has(name));
}

/** The values a request carries in the places its route declares secret. */
export function secretValuesOf(request: FastifyRequest, secrets: RouteSecrets): string[] {
  const from = (source: unknown, names: readonly string[] | undefined) =>
    (names ?? []).flatMap((name) => {
      const value =
        source && typeof source === "object" ? (source as Record<string, unknown>)[name] : undefined;
      return [value].flat().filter((v): v is string => typeof v === "string");
    });
  const values = [
    ...from(request.params, secrets.params),
    ...from(request.query, secrets.query),
    ...from(request.headers, secrets.headers),
    ...from(request.body, secrets.body),
  ];
  // As sent, too: a message quoting the raw URL holds the encoded form.
  const spellings = values.flatMap((v) => [v, encodeURIComponent(v), v.replace(/^Bearer\s+/i, "")]);
  return [...new Set(spellings)]
    .filter((v) => v.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
}

const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * A log argument with every secret value replaced by `[redacted]`: strings, plain objects,
 * arrays and errors (a copy of the same class: message, stack, cause and own fields). Other
 * objects (the request and reply) are left to their serializers, which redact them.
 */
export function scrubbed(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === "string") {
    return secrets.reduce((text, secret) => text.split(secret).join(REDACTED), value);
  }
  if (value === null || typeof value !== "object" || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => scrubbed(v, secrets, depth + 1));
  if (value instanceof Error) {
    // A copy of the same class, so the err serializer names its type as it would the original.
    const copy = Object.create(Object.getPrototypeOf(value)) as Record<string, unknown>;
    copy.message = scrubbed(value.message, secrets);
    if (value.stack) copy.stack = scrubbed(value.stack, secrets);
    for (const [k, v] of Object.entries(value)) copy[k] = scrubbed(v, secrets, depth + 1);
    if (value.cause !== undefined) copy.cause = scrubbed(value.cause, secrets, depth + 1);
    return copy;
  }
  if (!isPlain(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubbed(v, secrets, depth + 1)]));
}

/** Pino's log-method hook: a request logger that knows its secrets writes none of them. */
const logMethod: NonNullable<Parameters<typeof withRedaction>[2]> = function (args, method) {
  const values = (this as Scrubbable)[VALUES]?.();
  if (!values?.length) return method.apply(this, args);
  method.apply(this, args.map((a) => scrubbed(a, values)) as typeof args);
};

/**
 * The logger option of an app (redact.ts's `withRedaction`, with the scrubbing hook) and the
 * rules it reads, which `registerLogSecrets` fills from the route table.
 */
export function redactingLogger(logger: Parameters<typeof withRedaction>[0]) {
  const routes = new SecretRoutes();
  return {
    routes,
    logger: withRedaction(logger, routes, logMethod),
    enabled: Boolean(logger),
  };
}

/**
 * Before any route: each route's `config.secrets` joins the URL rules (a secret the route does
 * not have, or a header missing from `SECRET_HEADERS`, is refused at start-up), and a request
 * to a route with secrets gets a logger that scrubs their values.
 */
export function registerLogSecrets(
  app: FastifyInstance,
  { routes, enabled }: ReturnType<typeof redactingLogger>,
) {
  app.addHook("onRoute", (route: RouteOptions) => {
    const secrets = route.config?.secrets;
    if (!secrets) return;
    const loose = (secrets.headers ?? []).filter((h) => !(SECRET_HEADERS as readonly string[]).includes(h));
    if (loose.length) throw new Error(`${route.url}: add ${loose.join(", ")} to SECRET_HEADERS (redact.ts)`);
    routes.add(route.url, secrets);
  });
  // Without a logger every request shares one silent logger: nothing to scrub, nothing to mark.
  if (!enabled) return;
  app.addHook("onRequest", (request, _reply, done) => {
    const secrets = request.routeOptions.config?.secrets;
    // The request's own child logger (reply.log is the same one): read when a line is written,
    // so a body parsed later counts too.
    if (secrets) (request.log as Scrubbable)[VALUES] = () => secretValuesOf(request, secrets);
    done();
  });
}
