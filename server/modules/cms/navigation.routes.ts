/**
 * `/cms/navigations`: per domain, named trees of menu items (links to entries, external URLs,
 * groups), nested to the navigation's maximum depth. The public API serves them resolved
 * (navigation-tree.ts).
 */

import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import { BCP47_PATTERN } from "../../../schemas/cms-locales";
import { checkNavigation, MAX_NAV_ITEMS, type NavItem } from "../../../schemas/cms-navigation";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { badRequest, conflict, notFound } from "../../http/errors";
import { idParams } from "../../http/route-params";
import type { PublicCache } from "./public-cache";
import type { TypeRegistry } from "./type-registry";

const config = { access: moduleAccess(MODULE_IDS.cms) };
const security = [{ bearer: [] }];
const tags = ["cms navigations"];

/**
 * One item with its children, nested as deep as any navigation may be (8): a schema built to
 * that depth rather than a recursive `$ref`, so it stays within the routes' own Ajv.
 */
function itemSchemaOf(depth: number): Record<string, unknown> {
  return {
    type: "object",
    required: ["id", "label", "kind"],
    additionalProperties: false,
    properties: {
      id: { type: "string", minLength: 1, maxLength: 64 },
      label: { type: "string", title: "Label", maxLength: 120 },
      labels: {
        type: "object",
        title: "Labels by locale",
        maxProperties: 30,
        propertyNames: { pattern: BCP47_PATTERN, maxLength: 35 },
        additionalProperties: { type: "string", maxLength: 120 },
      },
      kind: { type: "string", title: "Kind", enum: ["entry", "url", "group"] },
      type: { type: "string", title: "Content type", maxLength: 63 },
      entryId: { type: "string", title: "Entry", format: "uuid" },
      url: { type: "string", title: "URL", maxLength: 2000 },
      hidden: { type: "boolean", title: "Hidden" },
      children:
        depth > 1
          ? { type: "array", maxItems: MAX_NAV_ITEMS, items: itemSchemaOf(depth - 1) }
          : { type: "array", maxItems: 0 },
    },
  };
}

/** Deeper than any navigation's maximum, so the depth message (in words) is the one given. */
const itemSchema = itemSchemaOf(9);

const navFields = {
  domain_id: { type: "string", title: "Domain", format: "uuid" },
  name: {
    type: "string",
    title: "Name",
    minLength: 1,
    maxLength: 63,
    pattern: "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$",
    "x-patternMessage": "may only contain lower-case letters, digits and dashes",
  },
  title: { type: "string", title: "Title", minLength: 1, maxLength: 120 },
  max_depth: { type: "integer", title: "Maximum depth", minimum: 1, maximum: 8 },
  items: { type: "array", title: "Items", maxItems: MAX_NAV_ITEMS, items: itemSchema },
} as const;

interface NavBody {
  domain_id: string;
  name: string;
  title: string;
  max_depth?: number;
  items?: NavItem[];
}

// biome-ignore lint/suspicious/noExplicitAny: rows of cms_navigations.
const toRecord = (r: any) => ({
  id: r.id,
  domain_id: r.domain_id,
  name: r.name,
  title: r.title,
  max_depth: r.max_depth,
  items: typeof r.items === "string" ? JSON.parse(r.items) : r.items,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

export async function navigationRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  registry: TypeRegistry,
  delivery: PublicCache,
) {
  const db = ctx.db;

  /** The tree's rules, and entry links that name entries that exist. */
  async function check(items: NavItem[], maxDepth: number) {
    const errors = checkNavigation(items, maxDepth);
    if (errors.length) throw badRequest(errors[0].message, errors);
    const types = await registry.all();
    const links: NavItem[] = [];
    const walk = (list: NavItem[]) =>
      list.forEach((i) => {
        if (i.kind === "entry") links.push(i);
        walk(i.children ?? []);
      });
    walk(items);
    for (const link of links) {
      const type = types.get(link.type ?? "");
      const found =
        type &&
        (await db
          .selectFrom("cms_entries")
          .select("id")
          .where("id", "=", link.entryId as string)
          .where("type_id", "=", type.id)
          .executeTakeFirst());
      if (!found)
        throw badRequest(`${link.label}: the linked entry does not exist`, [
          { field: "items", message: `${link.label}: the linked entry does not exist` },
        ]);
    }
  }

  const translate = (error: unknown) => {
    const code = (error as { code?: string }).code;
    if (code === "23505")
      return conflict("This domain already has a navigation with this name", [
        { field: "name", message: "Name is already in use in this domain" },
      ]);
    if (code === "23503")
      return badRequest("The chosen domain does not exist", [
        { field: "domain_id", message: "The chosen domain does not exist" },
      ]);
    return error;
  };

  app.get<{ Querystring: { domain?: string } }>(
    "/cms/navigations",
    {
      config,
      schema: {
        tags,
        security,
        summary: "List navigations (of one domain with ?domain=)",
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: { domain: { type: "string", format: "uuid" } },
        },
      },
    },
    async (request) => {
      let q = db.selectFrom("cms_navigations").selectAll().orderBy("name");
      if (request.query.domain) q = q.where("domain_id", "=", request.query.domain);
      const data = (await q.execute()).map(toRecord);
      return { data, total: data.length };
    },
  );
  app.get<{ Params: { id: string } }>(
    "/cms/navigations/:id",
    { config, schema: { tags, security, summary: "Get a navigation", params: idParams } },
    async (request) => {
      const row = await db
        .selectFrom("cms_navigations")
        .selectAll()
        .where("id", "=", request.params.id)
        .executeTakeFirst();
      if (!row) throw notFound("Navigation not found");
      return toRecord(row);
    },
  );
  app.post<{ Body: NavBody }>(
    "/cms/navigations",
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Create a navigation",
        body: {
          type: "object",
          additionalProperties: false,
          required: ["domain_id", "name", "title"],
          properties: navFields,
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const items = body.items ?? [];
      const maxDepth = body.max_depth ?? 3;
      await check(items, maxDepth);
      const actor = principalOf(request).userId;
      const row = await db
        .insertInto("cms_navigations")
        .values({
          domain_id: body.domain_id,
          name: body.name,
          title: body.title,
          max_depth: maxDepth,
          items: JSON.stringify(items),
          created_by: actor,
          updated_by: actor,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
        .catch((e: unknown) => {
          throw translate(e);
        });
      await delivery.changed();
      return reply.status(201).send(toRecord(row));
    },
  );
  app.patch<{ Params: { id: string }; Body: Partial<NavBody> }>(
    "/cms/navigations/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Change a navigation (its items are replaced as a whole)",
        params: idParams,
        body: { type: "object", additionalProperties: false, minProperties: 1, properties: navFields },
      },
    },
    async (request) => {
      const existing = await db
        .selectFrom("cms_navigations")
        .selectAll()
        .where("id", "=", request.params.id)
        .executeTakeFirst();
      if (!existing) throw notFound("Navigation not found");
      const body = request.body;
      const items = body.items ?? (existing.items as unknown as NavItem[]);
      await check(items, body.max_depth ?? existing.max_depth);
      const row = await db
        .updateTable("cms_navigations")
        .set({
          ...(body.domain_id ? { domain_id: body.domain_id } : {}),
          ...(body.name ? { name: body.name } : {}),
          ...(body.title ? { title: body.title } : {}),
          ...(body.max_depth ? { max_depth: body.max_depth } : {}),
          items: JSON.stringify(items),
          updated_at: sql`now()`,
          updated_by: principalOf(request).userId,
        })
        .where("id", "=", request.params.id)
        .returningAll()
        .executeTakeFirstOrThrow()
        .catch((e: unknown) => {
          throw translate(e);
        });
      await delivery.changed();
      return toRecord(row);
    },
  );
  app.delete<{ Params: { id: string } }>(
    "/cms/navigations/:id",
    { config, schema: { tags, security, summary: "Delete a navigation", params: idParams } },
    async (request, reply) => {
      const gone = await db
        .deleteFrom("cms_navigations")
        .where("id", "=", request.params.id)
        .returning("id")
        .executeTakeFirst();
      if (!gone) throw notFound("Navigation not found");
      await delivery.changed();
      return reply.status(204).send();
    },
  );
}
