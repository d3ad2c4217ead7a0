/** Users API: the signed-in user's own data, and admin management of users. */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import type { ChangePasswordRequest, UserWrite } from "../../../schemas/auth";
import {
  changePasswordBodySchema,
  userCreateBodySchema,
  userUpdateBodySchema,
} from "../../../schemas/auth-requests";
import { moduleAccess, principalOf, SIGNED_IN } from "../../auth/access";
import { clientMeta } from "../../auth/auth.routes";
import { signOutDevice } from "../../auth/sessions.service";
import type { AppContext } from "../../context";
import { notFound } from "../../http/errors";
import { type ListQuery, listQuerySchema } from "../../http/list-query";
import { idParams } from "../../http/route-params";
import { inviteUser, resendInvitation } from "./invite.service";
import { changeOwnPassword } from "./password.service";
import { peopleRoutes } from "./people.routes";
import { createUser, deleteUser, getMe, getUser, listDevices, listUsers, updateUser } from "./users.service";

const tags = ["users"];
const security = [{ bearer: [] }];
const ADMIN = moduleAccess(MODULE_IDS.users, { adminOnly: true });
const deviceParams = {
  type: "object",
  required: ["deviceId"],
  properties: { id: { type: "string", format: "uuid" }, deviceId: { type: "string", minLength: 1 } },
} as const;

export async function usersRoutes(app: FastifyInstance, ctx: AppContext) {
  await peopleRoutes(app, ctx);
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
      const me = principalOf(request);
      const by = { actorId: me.userId, actorSessionId: me.sessionId, ...clientMeta(request) };
      if (!(await signOutDevice(ctx, me.userId, request.params.deviceId, by)))
        throw notFound("Device not found");
      return reply.status(204).send();
    },
  );

  app.post<{ Body: ChangePasswordRequest }>(
    "/api/users/me/password",
    {
      config: { access: SIGNED_IN, secrets: { body: ["currentPassword", "newPassword"] } },
      schema: { tags, security, summary: "Change my password", body: changePasswordBodySchema },
    },
    (request) => changeOwnPassword(ctx, principalOf(request), request.body, clientMeta(request)),
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
      config: { access: ADMIN, idempotent: true },
      schema: { tags, security, summary: "Create a user", body: userCreateBodySchema },
    },
    async (request, reply) => {
      const actorId = principalOf(request).userId;
      const user = request.body.invite
        ? await inviteUser(ctx, request.body, actorId, clientMeta(request))
        : await createUser(ctx, request.body, actorId);
      return reply.status(201).send(user);
    },
  );

  app.post<{ Params: { id: string } }>(
    "/api/users/:id/invite",
    {
      config: { access: ADMIN },
      schema: { tags, security, summary: "Send a pending invitation again", params: idParams },
    },
    (request) => resendInvitation(ctx, request.params.id, principalOf(request).userId, clientMeta(request)),
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
    (request) =>
      updateUser(ctx, request.params.id, request.body, principalOf(request).userId, clientMeta(request)),
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
      const by = { actorId: principalOf(request).userId, ...clientMeta(request) };
      if (!(await signOutDevice(ctx, request.params.id, request.params.deviceId, by)))
        throw notFound("Device not found");
      return reply.status(204).send();
    },
  );
}
