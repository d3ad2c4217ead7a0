/**
 * The saved-view routes every resource gets beside its CRUD routes (docs/resource-api.md,
 * "Saved views"), under the resource's own path, so its module's permission covers them:
 *
 * - `GET …/views`: the views the person sees, and their default.
 * - `POST …/views`: saves a view (201).
 * - `PATCH …/views/{id}`, `DELETE …/views/{id}`: the owner's, or a shared one's by an admin.
 * - `PUT …/views/default` `{ id | null }`: the view the person's list opens with.
 *
 * `views` is a static segment, so Fastify's router prefers it to the record route `/:id`.
 */
import type { FastifyInstance } from "fastify";
import type { ResourceDefinition } from "../../../resources/contract";
import { resourcePath } from "../../../resources/contract";
import { type SavedViewInput, VIEW_NAME_MAX, VIEW_PAGE_SIZE_MAX } from "../../../schemas/saved-views";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { idParams } from "../../http/route-params";
import type { ResourceService } from "../service";
import { SavedViews } from "./views.service";

const filterItem = {
  type: "object",
  additionalProperties: true,
  description: "A Refine CrudFilter (field, operator, value) or an or/and group",
};

const stateSchema = {
  type: "object",
  title: "View",
  required: ["filters", "sort", "columns", "pageSize"],
  additionalProperties: false,
  properties: {
    filters: { type: "array", title: "Filters", maxItems: 50, items: filterItem },
    sort: {
      type: "string",
      title: "Sort",
      maxLength: 200,
      description: "`-price,name`; empty: the default sort",
    },
    columns: {
      type: ["array", "null"],
      title: "Columns",
      maxItems: 200,
      items: { type: "string", maxLength: 100 },
      description: "The columns shown, in order; null: the list's default columns",
    },
    pageSize: { type: "integer", title: "Page size", minimum: 1, maximum: VIEW_PAGE_SIZE_MAX },
    labels: {
      type: "object",
      additionalProperties: { type: "string" },
      description: "Ignored on input: the server names the fields by their titles",
    },
  },
} as const;

const name = { type: "string", title: "Name", minLength: 1, maxLength: VIEW_NAME_MAX } as const;
const shared = {
  type: "boolean",
  title: "Shared",
  description: "true: everyone with the module sees it; false: only its owner",
} as const;

const viewSchema = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    name: { type: "string" },
    shared: { type: "boolean" },
    state: { ...stateSchema, additionalProperties: true },
    notices: { type: "array", items: { type: "string" } },
    ownerId: { type: "string", format: "uuid" },
    ownerName: { type: "string" },
    canEdit: { type: "boolean" },
    createdAt: { type: "string", format: "date-time" },
    updatedAt: { type: "string", format: "date-time" },
  },
} as const;

/** Registers the saved-view routes of one resource. */
export function registerViewRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  def: ResourceDefinition,
  service: ResourceService,
): void {
  const views = new SavedViews(ctx, def, () => service.schemaNow());
  const path = `${resourcePath(def)}/views`;
  const config = { access: moduleAccess(def.moduleID) };
  const tags = [def.name];
  const security = [{ bearer: [] }];
  const plural = def.label.toLowerCase();

  app.get(
    path,
    {
      config,
      schema: {
        tags,
        security,
        summary: `Saved views of the ${plural} list`,
        description:
          "The shared views and the person's own, shared first; each view's state as it applies to the schema now, with a notice per part left out.",
        response: {
          200: {
            type: "object",
            properties: {
              data: { type: "array", items: viewSchema },
              defaultId: { type: ["string", "null"], format: "uuid" },
            },
          },
        },
      },
    },
    (request) => views.list(principalOf(request)),
  );

  app.post<{ Body: SavedViewInput }>(
    path,
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: `Save a view of the ${plural} list`,
        body: {
          type: "object",
          required: ["name", "shared", "state"],
          additionalProperties: false,
          properties: { name, shared, state: stateSchema },
        },
        response: { 201: viewSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await views.create(request.body, principalOf(request))),
  );

  app.put<{ Body: { id: string | null } }>(
    `${path}/default`,
    {
      config,
      schema: {
        tags,
        security,
        summary: `Choose the view the ${plural} list opens with`,
        body: {
          type: "object",
          required: ["id"],
          additionalProperties: false,
          properties: {
            id: {
              type: ["string", "null"],
              format: "uuid",
              title: "View",
              description: "null: the plain list",
            },
          },
        },
        response: {
          200: { type: "object", properties: { defaultId: { type: ["string", "null"], format: "uuid" } } },
        },
      },
    },
    (request) => views.setDefault(request.body.id, principalOf(request)),
  );

  app.patch<{ Params: { id: string }; Body: Partial<SavedViewInput> }>(
    `${path}/:id`,
    {
      config,
      schema: {
        tags,
        security,
        summary: `Rename, share or change a view of the ${plural} list`,
        params: idParams,
        body: {
          type: "object",
          additionalProperties: false,
          minProperties: 1,
          properties: { name, shared, state: stateSchema },
        },
        response: { 200: viewSchema },
      },
    },
    (request) => views.update(request.params.id, request.body, principalOf(request)),
  );

  app.delete<{ Params: { id: string } }>(
    `${path}/:id`,
    {
      config,
      schema: { tags, security, summary: `Delete a view of the ${plural} list`, params: idParams },
    },
    async (request, reply) => {
      await views.remove(request.params.id, principalOf(request));
      return reply.status(204).send();
    },
  );
}
