/** OpenAPI 3 document of every route (JSON at /api/docs/json) and a browsable reference at /api/docs. */
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { markScopePublic } from "../auth/access";

export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "Atelier API",
        version: "0.1.0",
        description: "Back-office API. Errors: { statusCode, error, message, details? }.",
      },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    },
  });
}

export async function registerOpenApiUi(app: FastifyInstance) {
  await app.register(async (scope) => {
    markScopePublic(scope);
    await scope.register(swaggerUi, { routePrefix: "/api/docs" });
  });
}
