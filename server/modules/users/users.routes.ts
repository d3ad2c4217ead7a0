/** Users API: the signed-in user's own data, and admin management of users. */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import type { UserWrite } from "../../../schemas/auth";
import { userCreateBodySchema, userUpdateBodySchema } from "../../../schemas/auth-requests";
import { moduleAccess, principalOf, SIGNED_IN } from "../../auth/access";
import { signOutDevice } from "../../auth/sessions.service";
import type { AppContext } from "../../context";
import { notFound } from "../../http/errors";
import { type ListQuery, listQuerySchema } from "../../http/list-query";
import { createUser, deleteUser, getMe, getUser, listDevices, listUsers, updateUser } from "./users.service";

const tags = ["users"];
const security = [{ bearer: [] }];
const ADMIN = moduleAccess(MODULE_IDS.users, { adminOnly: true });
const idParams = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string", format: "uuid" } },
} as const;
const deviceParams = {
  type: "object",
  required: ["deviceId"],
  properties: { id: { type: "string", format: "uuid" }, deviceId: { type: "string", minLength: 1 } },
} as const;

export async function usersRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get(
    "/api/users/me",
    { config: { access: SIGNED_IN }, schema: { tags, security, summary: "The signed-in user" } },
    (request) => getMe(ctx, principalOf(request).userId),
  );

  app.get(
    "/api/users/me/devices",
    { config: { access: SIGNED_IN }, schema: { tags, security, summary: "My devices" } },
    (request) => {
      const me = principalOf(request);
      return listDevices(ctx, me.userId, me.deviceId);
    },
  );

  app.delete<{ Params: { deviceId: string } }>(
    "/api/users/me/devices/:deviceId",
    {
      config: { access: SIGNED_IN },
      schema: { tags, security, summary: "Sign one of my devices out", params: deviceParams },
    },
    async (request, reply) => {
      if (!(await signOutDevice(ctx, principalOf(request).userId, request.params.deviceId)))
        throw notFound("Device not found");
      return reply.status(204).send();
    },
  );

  app.get<{ Querystring: ListQuery }>(
    "/api/users",
    {
      config: { access: ADMIN },
      schema: { tags, security, summary: "List users", querystring: listQuerySchema },
    },
    (request) => listUsers(ctx, request.query),
  );

  app.post<{ Body: UserWrite }>(
    "/api/users",
    {
      config: { access: ADMIN },
      schema: { tags, security, summary: "Create a user", body: userCreateBodySchema },
    },
    async (request, reply) =>
      reply.status(201).send(await createUser(ctx, request.body, principalOf(request).userId)),
  );

  app.get<{ Params: { id: string } }>(
    "/api/users/:id",
    { config: { access: ADMIN }, schema: { tags, security, summary: "Get a user", params: idParams } },
    (request) => getUser(ctx, request.params.id),
  );

  app.patch<{ Params: { id: string }; Body: Partial<UserWrite> }>(
    "/api/users/:id",
    {
      config: { access: ADMIN },
      schema: { tags, security, summary: "Update a user", params: idParams, body: userUpdateBodySchema },
    },
    (request) => updateUser(ctx, request.params.id, request.body, principalOf(request).userId),
  );

  app.delete<{ Params: { id: string } }>(
    "/api/users/:id",
    { config: { access: ADMIN }, schema: { tags, security, summary: "Delete a user", params: idParams } },
    async (request, reply) => {
      await deleteUser(ctx, request.params.id, principalOf(request).userId);
      return reply.status(204).send();
    },
  );

  app.get<{ Params: { id: string } }>(
    "/api/users/:id/devices",
    { config: { access: ADMIN }, schema: { tags, security, summary: "A user's devices", params: idParams } },
    async (request) => {
      await getUser(ctx, request.params.id);
      return listDevices(ctx, request.params.id, null);
    },
  );

  app.delete<{ Params: { id: string; deviceId: string } }>(
    "/api/users/:id/devices/:deviceId",
    {
      config: { access: ADMIN },
      schema: { tags, security, summary: "Sign a user's device out", params: deviceParams },
    },
    async (request, reply) => {
      if (!(await signOutDevice(ctx, request.params.id, request.params.deviceId)))
        throw notFound("Device not found");
      return reply.status(204).send();
    },
  );
}
