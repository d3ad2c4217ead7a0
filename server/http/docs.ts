/**
 * OpenAPI document of every route (JSON at /api/docs/json) and a browsable reference at
 * /api/docs. OpenAPI 3.1, because its schemas are JSON Schema (2020-12) like the route schemas
 * they are made from: 3.0's dialect rejects, for one, a numeric `exclusiveMinimum`.
 */
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { markScopePublic } from "../auth/access";

/** The OpenAPI version the document declares (tests/server/openapi-valid.test.ts validates it). */
export const OPENAPI_VERSION = "3.1.0";

export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: OPENAPI_VERSION,
      info: {
        title: "Atelier API",
        version: "0.1.0",
        description: "Back-office API. Errors: { statusCode, error, message, details? }.",
      },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    },
  });
}

/** The part of the document an extension changes. */
export type OpenApiDocument = { paths?: Record<string, unknown>; [key: string]: unknown };

/** Paths made at request time (routes defined as data, such as CMS content types). */
export interface OpenApiExtension {
  prepare(): Promise<void>;
  transform(doc: OpenApiDocument): OpenApiDocument;
}

export async function registerOpenApiUi(app: FastifyInstance, extensions: readonly OpenApiExtension[] = []) {
  await app.register(async (scope) => {
    markScopePublic(scope);
    scope.addHook("onRequest", async () => {
      for (const e of extensions) await e.prepare();
    });
    await scope.register(swaggerUi, {
      routePrefix: "/api/docs",
      transformSpecification: (doc) =>
        extensions.reduce<OpenApiDocument>((d, e) => e.transform(d), doc as OpenApiDocument) as typeof doc,
    });
  });
}
