/**
 * Serves the built SPA under /manage (client routes fall back to index.html), static
 * images under /manage/, and /meta.json with the build date (spec §2).
 *
 * Every page goes out with its CSP (server/http/security-headers.ts); the reset-password
 * pages are the admin app too, but with `no-referrer` and `no-store`, since their URL is a
 * secret. Hashed build assets are served precompressed (the build writes `.br` and `.gz`
 * beside them) and cached for a year.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";
import { markScopePublic } from "../auth/access";
import type { Config } from "../config";
import { builtPage } from "./built-pages";
import { errorBody } from "./errors";
import { type PageKind, pageHeaders } from "./security-headers";

/** The reset-password pages' client routes (src/app.tsx), the older two-segment form too. */
export const RESET_PAGES = ["/manage/resetpassword/:id", "/manage/resetpassword/:length/:id"];

export interface SpaOptions {
  /** Origins the admin app may frame besides its own (the CMS domains' preview sites). */
  frameSrc?: () => Promise<readonly string[]>;
}

export async function spaRoutes(app: FastifyInstance, config: Config, options: SpaOptions = {}) {
  const { clientDir } = config;
  const indexFile = path.join(clientDir, "index.html");
  const built = existsSync(indexFile);

  /** index.html as a page of `kind`: its CSP with the hashes of its inline scripts. */
  const sendIndex = async (reply: FastifyReply, kind: PageKind) => {
    const page = builtPage(indexFile);
    if (!page) return reply.status(503).type("text/plain").send("The admin app is not built.");
    const frameSrc = (await options.frameSrc?.()) ?? [];
    return reply
      .headers({ "cache-control": "no-cache", ...pageHeaders(config, kind, { ...page, frameSrc }) })
      .type("text/html")
      .send(page.html);
  };

  await app.register(async (scope) => {
    markScopePublic(scope);
    scope.get("/", (_req, reply) => reply.redirect("/manage/"));
    scope.get("/manage", (_req, reply) => reply.redirect("/manage/"));
    scope.get("/meta.json", (_req, reply) => {
      const file = path.join(clientDir, "meta.json");
      const meta = existsSync(file) ? readFileSync(file, "utf8") : JSON.stringify({ buildDateTime: null });
      return reply.header("cache-control", "no-store").type("application/json").send(meta);
    });
    if (!built) {
      scope.get("/manage/*", (_req, reply) =>
        reply
          .status(503)
          .type("text/plain")
          .send("The admin app is not built yet: run `npm run build` (npm start does this for you)."),
      );
      return;
    }
    scope.get("/manage/", (_req, reply) => sendIndex(reply, "admin"));
    for (const url of RESET_PAGES) scope.get(url, (_req, reply) => sendIndex(reply, "reset"));
    await scope.register(fastifyStatic, {
      root: clientDir,
      prefix: "/manage/",
      index: false,
      // `x.js` is answered from `x.js.br` or `x.js.gz` by Accept-Encoding (with Vary), else itself.
      preCompressed: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
        // index.html or viewer.html asked for by name: still the admin app's policy.
        if (filePath.endsWith(".html")) {
          res.headers(pageHeaders(config, "admin", builtPage(filePath) ?? {}));
        }
      },
    });
  });

  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === "GET" && request.url.startsWith("/manage/") && built;
    if (wantsPage && !path.extname(request.url.split("?")[0])) return sendIndex(reply, "admin");
    return reply
      .status(404)
      .send(errorBody(404, `Route ${request.method} ${request.url.split("?")[0]} not found`));
  });
}
