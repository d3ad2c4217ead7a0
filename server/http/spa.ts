/**
 * Serves the built SPA under /manage (client routes fall back to index.html), static
 * images under /manage/, and /meta.json with the build date (spec §2).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { markScopePublic } from "../auth/access";
import { errorBody } from "./errors";

export async function spaRoutes(app: FastifyInstance, clientDir: string) {
  const indexFile = path.join(clientDir, "index.html");
  const built = existsSync(indexFile);

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
    scope.get("/manage/", (_req, reply) =>
      reply.header("cache-control", "no-cache").type("text/html").send(readFileSync(indexFile)),
    );
    await scope.register(fastifyStatic, {
      root: clientDir,
      prefix: "/manage/",
      index: false,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  });

  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === "GET" && request.url.startsWith("/manage/") && built;
    if (wantsPage && !path.extname(request.url.split("?")[0])) {
      return reply.header("cache-control", "no-cache").type("text/html").send(readFileSync(indexFile));
    }
    return reply
      .status(404)
      .send(errorBody(404, `Route ${request.method} ${request.url.split("?")[0]} not found`));
  });
}
