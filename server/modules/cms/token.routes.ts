/**
 * `/cms/domains/{id}/tokens`: read-only API tokens of a domain whose content needs one. Stored
 * hashed (SHA-256: the token is 32 random bytes, so no slow hash is needed), shown once when
 * made, revocable; the list shows their first characters and when each was last used.
 */
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import { isoOrNull as iso } from "../../../src/lib/dates";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { notFound } from "../../http/errors";
import { hashToken } from "./public.routes";

const config = { access: moduleAccess(MODULE_IDS.cms) };
const security = [{ bearer: [] }];
const tags = ["cms domains"];
const domainParams = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string", format: "uuid" } },
} as const;
const tokenParams = {
  type: "object",
  required: ["id", "tokenId"],
  properties: { id: { type: "string", format: "uuid" }, tokenId: { type: "string", format: "uuid" } },
} as const;

export async function tokenRoutes(app: FastifyInstance, ctx: AppContext) {
  const domainExists = async (id: string) => {
    const found = await ctx.db.selectFrom("cms_domains").select("id").where("id", "=", id).executeTakeFirst();
    if (!found) throw notFound("Domain not found");
  };

  app.get<{ Params: { id: string } }>(
    "/cms/domains/:id/tokens",
    {
      config,
      schema: {
        tags,
        security,
        summary: "A domain's API tokens (never the tokens themselves)",
        params: domainParams,
      },
    },
    async (request) => {
      await domainExists(request.params.id);
      const rows = await ctx.db
        .selectFrom("cms_api_tokens")
        .selectAll()
        .where("domain_id", "=", request.params.id)
        .orderBy("created_at", "desc")
        .execute();
      const data = rows.map((r) => ({
        id: r.id,
        name: r.name,
        prefix: r.prefix,
        lastUsedAt: iso(r.last_used_at),
        revokedAt: iso(r.revoked_at),
        createdAt: iso(r.created_at),
      }));
      return { data, total: data.length };
    },
  );
  app.post<{ Params: { id: string }; Body: { name: string } }>(
    "/cms/domains/:id/tokens",
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Make a read-only API token; the answer is the only time it is shown",
        params: domainParams,
        body: {
          type: "object",
          additionalProperties: false,
          required: ["name"],
          properties: { name: { type: "string", title: "Name", minLength: 1, maxLength: 120 } },
        },
      },
    },
    async (request, reply) => {
      await domainExists(request.params.id);
      const token = `cms_${randomBytes(32).toString("base64url")}`;
      const row = await ctx.db
        .insertInto("cms_api_tokens")
        .values({
          domain_id: request.params.id,
          name: request.body.name,
          token_hash: hashToken(token),
          prefix: token.slice(0, 10),
          created_by: principalOf(request).userId,
        })
        .returning(["id", "name", "prefix", "created_at"])
        .executeTakeFirstOrThrow();
      return reply
        .status(201)
        .send({ id: row.id, name: row.name, prefix: row.prefix, createdAt: iso(row.created_at), token });
    },
  );
  app.delete<{ Params: { id: string; tokenId: string } }>(
    "/cms/domains/:id/tokens/:tokenId",
    {
      // The id of a token's row: the token itself is never sent back.
      config: { ...config, secrets: { notSecret: ["tokenId"] } },
      schema: { tags, security, summary: "Revoke a token: it stops working at once", params: tokenParams },
    },
    async (request, reply) => {
      const revoked = await ctx.db
        .updateTable("cms_api_tokens")
        .set({ revoked_at: sql`coalesce(revoked_at, now())` })
        .where("id", "=", request.params.tokenId)
        .where("domain_id", "=", request.params.id)
        .returning("id")
        .executeTakeFirst();
      if (!revoked) throw notFound("Token not found");
      return reply.status(204).send();
    },
  );
}
