/**
 * Security headers of every answer (issue 10):
 *
 * - every answer: `X-Content-Type-Options: nosniff`, a `Referrer-Policy`
 *   (`strict-origin-when-cross-origin`; pages may set a stricter one), and HSTS when
 *   `PUBLIC_URL` is https (over plain http the header would be ignored, and on a dev box it
 *   would pin localhost to https);
 * - auth answers (`/api/auth/*`, `/api/users/me…`, `/clients/logout`): `Cache-Control: no-store`,
 *   since they carry tokens or the signed-in user;
 * - HTML answers: a Content-Security-Policy. Pages we serve set their own through
 *   `pageHeaders` (the admin app, the reset pages, the catalogue viewer); any other HTML (the
 *   API reference) gets the admin policy.
 *
 * Styles: antd 5 injects its CSS-in-JS as `<style>` tags at run time, and so do rc-* helpers
 * and the icons, so `style-src` keeps `'unsafe-inline'`. antd can stamp a nonce on its tags,
 * but a nonce means templating every HTML answer per request and threading it through each
 * library that injects styles; one missed and the UI silently loses its styles. Injected CSS
 * cannot run script, so the script policy (no inline script unless hashed) is where CSP
 * protects.
 *
 * Eval: the admin app's forms validate with the server's own Ajv configuration
 * (schemas/validator-config.ts, STYLE habit 3), and Ajv compiles each schema to a function
 * with `new Function`, so the admin document (and the reset pages, which are the same
 * document and lead on to the forms without a reload) allows `'unsafe-eval'`. Inline script
 * stays forbidden. The public viewer has no validator and no eval. Precompiled standalone
 * validators would drop it for the static schemas, but not for the schemas admins define at
 * run time (CMS content types, forms).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Config } from "../config";
import { buildSources } from "./built-pages";

/** The kinds of page, by who may see and embed them. */
export type PageKind = "admin" | "reset" | "public";

/** What one page adds to the base policy. */
export interface PageSources {
  /** `'sha256-…'` sources of the page's inline scripts. */
  scriptHashes?: readonly string[];
  /** Origins the page may frame (the viewer: YouTube and its iframe hotspots). */
  frameSrc?: readonly string[];
  /** Origins the page may load images from, besides ours and the asset base. */
  imgSrc?: readonly string[];
  /** Who may frame the page, instead of FRAME_ANCESTORS (public forms: any site, `*`). */
  frameAncestors?: readonly string[];
}

export const HSTS = "max-age=31536000; includeSubDomains";

/** Answers that carry tokens or the signed-in user: never stored by a browser or a proxy. */
const NO_STORE = [/^\/api\/auth(\/|$)/, /^\/api\/users\/me(\/|$)/, /^\/clients\/logout$/];

export function isNoStorePath(path: string): boolean {
  return NO_STORE.some((pattern) => pattern.test(path));
}

/** The socket.io origin of a page origin: `https://x` → `wss://x`. */
function socketOrigin(origin: string): string {
  return origin.replace(/^http/, "ws");
}

const unique = (values: Iterable<string>) => [...new Set(values)];

/**
 * The Content-Security-Policy of a page of `kind`.
 *
 * @example
 * contentSecurityPolicy(config, "public", { frameSrc: ["https://www.youtube.com"] })
 * // "default-src 'self'; script-src 'self'; … frame-src 'self' https://www.youtube.com; frame-ancestors 'self'"
 */
export function contentSecurityPolicy(config: Config, kind: PageKind, page: PageSources = {}): string {
  const build = buildSources(config.clientDir);
  const publicOrigin = new URL(config.publicUrl).origin;
  const directives: Array<[string, readonly string[]]> = [
    ["default-src", ["'self'"]],
    ["script-src", ["'self'", ...(kind === "public" ? [] : ["'unsafe-eval'"]), ...(page.scriptHashes ?? [])]],
    ["style-src", ["'self'", "'unsafe-inline'"]],
    ["img-src", unique(["'self'", "data:", "blob:", ...build.img, ...(page.imgSrc ?? [])])],
    ["media-src", unique(["'self'", "blob:", ...build.img])],
    ["font-src", ["'self'", "data:"]],
    // 'self' covers same-origin ws: in CSP 3; the public origin's is named for older engines
    // and for pages reached through another host name than PUBLIC_URL's.
    ["connect-src", unique(["'self'", socketOrigin(publicOrigin), ...build.connect])],
    ["frame-src", unique(["'self'", ...(page.frameSrc ?? [])])],
    ["object-src", ["'none'"]],
    ["base-uri", ["'self'"]],
    ["form-action", ["'self'"]],
    [
      "frame-ancestors",
      kind === "public" ? (page.frameAncestors ?? config.frameAncestors.split(" ")) : ["'none'"],
    ],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(" ")}`).join("; ");
}

/**
 * The headers of an HTML page of `kind`: its CSP, and `no-referrer` on the reset pages (their
 * URL holds the reset secret, which must not leak to the next site through the Referer).
 */
export function pageHeaders(config: Config, kind: PageKind, page: PageSources = {}): Record<string, string> {
  const headers: Record<string, string> = {
    "content-security-policy": contentSecurityPolicy(config, kind, page),
    "referrer-policy": kind === "reset" ? "no-referrer" : "strict-origin-when-cross-origin",
  };
  if (kind === "reset") headers["cache-control"] = "no-store";
  return headers;
}

function pathOf(request: FastifyRequest): string {
  // The route's own pattern when there is one, so encoded spellings of a path match too.
  return request.routeOptions.url ?? request.url.split("?")[0];
}

/**
 * Adds the headers above to every answer, errors and 404s included. Register it before any
 * route so every scope inherits the hook.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const hsts = config.publicUrl.startsWith("https:");
  // A callback hook, not an async one: it runs on every answer and never waits for anything.
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-content-type-options", "nosniff");
    if (!reply.hasHeader("referrer-policy"))
      reply.header("referrer-policy", "strict-origin-when-cross-origin");
    if (hsts) reply.header("strict-transport-security", HSTS);
    if (isNoStorePath(pathOf(request))) reply.header("cache-control", "no-store");
    const type = String(reply.getHeader("content-type") ?? "");
    if (type.startsWith("text/html") && !reply.hasHeader("content-security-policy")) {
      reply.header("content-security-policy", contentSecurityPolicy(config, "admin"));
    }
    done(null, payload);
  });
}
