/**
 * The CMS admin API (the CMS base, every route needs the CMS module): content types and
 * components, and each type's entries with publish, versions and schedules.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import type { ContentTypeKind } from "../../../schemas/cms-fields";
import { BCP47_PATTERN } from "../../../schemas/cms-locales";
import { moduleAccess, principalOf } from "../../auth/access";
import { notFound } from "../../http/errors";
import { type ListQuery, listQuerySchema } from "../../http/list-query";
import type { ContentTypesService, TypeChange, TypeInput } from "./content-types.service";
import type { EntriesService } from "./entries.service";
import type { EntryLifecycle } from "./entry-lifecycle";
import {
  entryBody,
  entryParams,
  idsBody,
  scheduleBody,
  typeCreateBody,
  typeParams,
  typeUpdateBody,
  versionParams,
} from "./route-schemas";

type Values = Record<string, unknown>;
type TypeP = { Params: { type: string } };
type EntryP = { Params: { type: string; id: string } };

const config = { access: moduleAccess(MODULE_IDS.cms) };
const security = [{ bearer: [] }];

export interface CmsServices {
  types: ContentTypesService;
  entries: EntriesService;
  lifecycle: EntryLifecycle;
}

/** An entry body: the entry's own keys apart, the rest is the type's values. */
function splitEntryBody(body: Values) {
  const { domain_ids, revision, ...values } = body;
  return {
    values,
    domainIds: domain_ids as string[] | undefined,
    revision: revision as number | undefined,
  };
}

export async function cmsRoutes(app: FastifyInstance, { types, entries, lifecycle }: CmsServices) {
  const typeTags = ["cms content types"];
  const entryTags = ["cms entries"];

  /** An entries route's type: a collection or a single (components have no entries). */
  const entryType = async (name: string) => {
    const type = await types.find(name);
    if (type.kind === "component") throw notFound("Content type not found");
    return type;
  };

  const listTypes = (kind?: ContentTypeKind) => async () => {
    const data = await types.list(kind);
    return { data, total: data.length };
  };
  app.get(
    "/cms/content-types",
    { config, schema: { tags: typeTags, security, summary: "List content types and components" } },
    listTypes(),
  );
  app.get(
    "/cms/components",
    { config, schema: { tags: typeTags, security, summary: "List components" } },
    listTypes("component"),
  );
  app.get<TypeP>(
    "/cms/content-types/:type",
    {
      config,
      schema: {
        tags: typeTags,
        security,
        summary: "Get a content type (by id or API name)",
        params: typeParams,
      },
    },
    (request) => types.get(request.params.type),
  );
  app.post<{ Body: TypeInput }>(
    "/cms/content-types",
    {
      config: { ...config, idempotent: true },
      schema: {
        tags: typeTags,
        security,
        summary: "Create a content type or component",
        body: typeCreateBody,
      },
    },
    async (request, reply) =>
      reply.status(201).send(await types.create(request.body, principalOf(request).userId)),
  );
  app.patch<TypeP & { Body: TypeChange }>(
    "/cms/content-types/:type",
    {
      config,
      schema: {
        tags: typeTags,
        security,
        summary:
          "Change a content type: renamed fields keep their values; removing fields with values needs confirm",
        params: typeParams,
        body: typeUpdateBody,
      },
    },
    (request) => types.update(request.params.type, request.body, principalOf(request).userId),
  );
  app.delete<TypeP & { Querystring: { confirm?: boolean } }>(
    "/cms/content-types/:type",
    {
      config,
      schema: {
        tags: typeTags,
        security,
        summary: "Delete a content type (with entries: confirm=true deletes them too)",
        params: typeParams,
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: { confirm: { type: "boolean" } },
        },
      },
    },
    async (request, reply) => {
      await types.remove(request.params.type, request.query.confirm === true);
      return reply.status(204).send();
    },
  );

  const entryListQuery = {
    ...listQuerySchema,
    properties: {
      ...listQuerySchema.properties,
      domain: { type: "string", format: "uuid" },
      locale: { type: "string", title: "Locale", maxLength: 35, pattern: BCP47_PATTERN },
      missing: { type: "string", title: "Missing in locale", maxLength: 35, pattern: BCP47_PATTERN },
    },
  };
  app.get<TypeP & { Querystring: ListQuery & { domain?: string; locale?: string; missing?: string } }>(
    "/cms/entries/:type",
    {
      config,
      schema: {
        tags: entryTags,
        security,
        summary: "List a type's entries",
        params: typeParams,
        querystring: entryListQuery,
      },
    },
    async (request) => entries.list(await entryType(request.params.type), request.query),
  );
  app.get<EntryP>(
    "/cms/entries/:type/:id",
    {
      config,
      schema: { tags: entryTags, security, summary: "Get an entry (its draft)", params: entryParams },
    },
    async (request) => entries.get(await entryType(request.params.type), request.params.id),
  );
  app.post<TypeP & { Body: Values }>(
    "/cms/entries/:type",
    {
      config: { ...config, idempotent: true },
      schema: {
        tags: entryTags,
        security,
        summary: "Create an entry (a draft)",
        params: typeParams,
        body: entryBody,
      },
    },
    async (request, reply) => {
      const type = await entryType(request.params.type);
      const entry = await entries.create(type, splitEntryBody(request.body), principalOf(request).userId);
      return reply.status(201).send(entry);
    },
  );
  app.patch<EntryP & { Body: Values; Querystring: { autosave?: boolean } }>(
    "/cms/entries/:type/:id",
    {
      config,
      schema: {
        tags: entryTags,
        security,
        summary: "Save an entry's draft (a version; autosave=true: no version). A stale revision is a 409.",
        params: entryParams,
        body: entryBody,
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: { autosave: { type: "boolean" } },
        },
      },
    },
    async (request) => {
      const type = await entryType(request.params.type);
      const write = { ...splitEntryBody(request.body), autosave: request.query.autosave === true };
      return entries.update(type, request.params.id, write, principalOf(request).userId);
    },
  );
  app.delete<EntryP>(
    "/cms/entries/:type/:id",
    { config, schema: { tags: entryTags, security, summary: "Delete an entry", params: entryParams } },
    async (request, reply) => {
      const type = await entryType(request.params.type);
      const entry = await entries.get(type, request.params.id);
      await entries.remove(type, [request.params.id], principalOf(request).userId, true);
      await lifecycle.emit("delete", type, entry);
      return reply.status(204).send();
    },
  );
  app.post<TypeP & { Body: { ids: string[] } }>(
    "/cms/entries/:type/delete",
    {
      config,
      schema: {
        tags: entryTags,
        security,
        summary: "Delete several entries",
        params: typeParams,
        body: idsBody,
      },
    },
    async (request) => {
      const type = await entryType(request.params.type);
      return { deleted: await entries.remove(type, request.body.ids, principalOf(request).userId, false) };
    },
  );

  const revisionBody = {
    type: "object",
    additionalProperties: false,
    properties: { revision: entryBody.properties.revision },
  };
  app.post<EntryP & { Body: { revision?: number } }>(
    "/cms/entries/:type/:id/publish",
    {
      config,
      schema: {
        tags: entryTags,
        security,
        summary: "Publish the entry's draft",
        params: entryParams,
        body: revisionBody,
      },
    },
    async (request) =>
      lifecycle.publish(
        await entryType(request.params.type),
        request.params.id,
        principalOf(request).userId,
        request.body?.revision,
      ),
  );
  app.post<EntryP>(
    "/cms/entries/:type/:id/unpublish",
    {
      config,
      schema: {
        tags: entryTags,
        security,
        summary: "Take the entry off the public API",
        params: entryParams,
      },
    },
    async (request) =>
      lifecycle.unpublish(
        await entryType(request.params.type),
        request.params.id,
        principalOf(request).userId,
      ),
  );
  app.post<EntryP & { Body: { publishAt?: string | null; unpublishAt?: string | null } }>(
    "/cms/entries/:type/:id/schedule",
    {
      config,
      schema: {
        tags: entryTags,
        security,
        summary: "Publish and/or unpublish at a time (null clears)",
        params: entryParams,
        body: scheduleBody,
      },
    },
    async (request) =>
      lifecycle.schedule(
        await entryType(request.params.type),
        request.params.id,
        request.body,
        principalOf(request).userId,
      ),
  );
  app.get<EntryP>(
    "/cms/entries/:type/:id/versions",
    {
      config,
      schema: {
        tags: entryTags,
        security,
        summary: "An entry's versions, newest first",
        params: entryParams,
      },
    },
    async (request) => {
      const data = await lifecycle.versions(await entryType(request.params.type), request.params.id);
      return { data, total: data.length };
    },
  );
  const versionRef = {
    anyOf: [
      { type: "integer", minimum: 1, maximum: 1_000_000 },
      { type: "string", const: "current" },
    ],
  };
  app.get<EntryP & { Querystring: { from: number | "current"; to: number | "current" } }>(
    "/cms/entries/:type/:id/versions/diff",
    {
      config,
      schema: {
        tags: entryTags,
        security,
        summary: "What changed between two versions (or a version and the current draft)",
        params: entryParams,
        querystring: {
          type: "object",
          required: ["from", "to"],
          additionalProperties: false,
          properties: { from: versionRef, to: versionRef },
        },
      },
    },
    async (request) => {
      const { from, to } = request.query;
      const changes = await lifecycle.diff(await entryType(request.params.type), request.params.id, from, to);
      return { from, to, changes };
    },
  );
  app.get<{ Params: { type: string; id: string; number: number } }>(
    "/cms/entries/:type/:id/versions/:number",
    { config, schema: { tags: entryTags, security, summary: "One version's values", params: versionParams } },
    async (request) =>
      lifecycle.version(await entryType(request.params.type), request.params.id, request.params.number),
  );
  app.post<{ Params: { type: string; id: string; number: number } }>(
    "/cms/entries/:type/:id/versions/:number/restore",
    {
      config,
      schema: {
        tags: entryTags,
        security,
        summary: "Make a version's values the draft (a new version)",
        params: versionParams,
      },
    },
    async (request) =>
      lifecycle.restore(
        await entryType(request.params.type),
        request.params.id,
        request.params.number,
        principalOf(request).userId,
      ),
  );
}
