/**
 * Second factor routes (docs/platform-api.md "Second factor"): the sign-in's second step
 * (public, with a challenge), the signed-in user's own authenticator and recovery codes, and
 * the admin's policy and reset. Codes and challenges come in bodies, which are never logged.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../resources/modules";
import {
  anyCodeBodySchema,
  enrolChallengeBodySchema,
  enrolConfirmChallengeBodySchema,
  policyBodySchema,
  type SecondFactorPolicy,
  secondFactorSignInBodySchema,
  totpCodeBodySchema,
} from "../../schemas/second-factor";
import type { AppContext } from "../context";
import { idParams } from "../http/route-params";
import { moduleAccess, PUBLIC, principalOf, SIGNED_IN } from "./access";
import { clientMeta } from "./auth.routes";
import {
  beginEnrolment,
  confirmEnrolment,
  disableOwnSecondFactor,
  regenerateRecoveryCodes,
  resetSecondFactor,
  secondFactorPolicy,
  secondFactorStatus,
  setSecondFactorPolicy,
} from "./second-factor.service";
import { confirmEnrolmentAtSignIn, enrolAtSignIn, signInWithSecondFactor } from "./second-factor.signin";

const tags = ["auth"];
const security = [{ bearer: [] }];
const ADMIN = moduleAccess(MODULE_IDS.users, { adminOnly: true });

type Code = { Body: { code: string } };
type Challenge = { Body: { challenge: string; code: string } };

async function emailOf(ctx: AppContext, userId: string) {
  const row = await ctx.db
    .selectFrom("users")
    .select("email")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return row.email;
}

export async function secondFactorRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post<Challenge>(
    "/api/auth/signin/second-factor",
    {
      config: { access: PUBLIC, secrets: { body: ["challenge", "code"] } },
      schema: {
        tags,
        summary: "Sign in: the second step (an app code or a recovery code)",
        body: secondFactorSignInBodySchema,
      },
    },
    (request) => signInWithSecondFactor(ctx, request.body, clientMeta(request)),
  );

  app.post<{ Body: { challenge: string } }>(
    "/api/auth/signin/second-factor/enrol",
    {
      config: { access: PUBLIC, secrets: { body: ["challenge"] } },
      schema: { tags, summary: "Sign in: set up the required second factor", body: enrolChallengeBodySchema },
    },
    (request) => enrolAtSignIn(ctx, request.body.challenge),
  );

  app.post<Challenge>(
    "/api/auth/signin/second-factor/enrol/confirm",
    {
      config: { access: PUBLIC, secrets: { body: ["challenge", "code"] } },
      schema: {
        tags,
        summary: "Sign in: confirm the second factor set up, and sign in",
        body: enrolConfirmChallengeBodySchema,
      },
    },
    (request) => confirmEnrolmentAtSignIn(ctx, request.body, clientMeta(request)),
  );

  app.get(
    "/api/users/me/second-factor",
    { config: { access: SIGNED_IN }, schema: { tags, security, summary: "My second factor" } },
    (request) => {
      const me = principalOf(request);
      return secondFactorStatus(ctx, me.userId, me.role);
    },
  );

  app.post(
    "/api/users/me/second-factor/enrol",
    {
      config: { access: SIGNED_IN },
      schema: { tags, security, summary: "Begin setting up an authenticator app" },
    },
    async (request) => {
      const me = principalOf(request);
      return beginEnrolment(ctx, me.userId, await emailOf(ctx, me.userId));
    },
  );

  app.post<Code>(
    "/api/users/me/second-factor/confirm",
    {
      config: { access: SIGNED_IN, secrets: { body: ["code"] } },
      schema: {
        tags,
        security,
        summary: "Confirm the authenticator app with a code",
        body: totpCodeBodySchema,
      },
    },
    async (request) => {
      const me = principalOf(request);
      const actor = { email: await emailOf(ctx, me.userId), ...clientMeta(request) };
      return confirmEnrolment(ctx, me.userId, request.body.code, actor);
    },
  );

  app.post<Code>(
    "/api/users/me/second-factor/recovery-codes",
    {
      config: { access: SIGNED_IN, secrets: { body: ["code"] } },
      schema: {
        tags,
        security,
        summary: "New recovery codes (the old ones stop working)",
        body: anyCodeBodySchema,
      },
    },
    async (request) => {
      const me = principalOf(request);
      const actor = { email: await emailOf(ctx, me.userId), ...clientMeta(request) };
      return regenerateRecoveryCodes(ctx, me.userId, request.body.code, actor);
    },
  );

  app.post<Code>(
    "/api/users/me/second-factor/disable",
    {
      config: { access: SIGNED_IN, secrets: { body: ["code"] } },
      schema: { tags, security, summary: "Turn my second factor off", body: anyCodeBodySchema },
    },
    async (request, reply) => {
      const me = principalOf(request);
      const actor = { email: await emailOf(ctx, me.userId), ...clientMeta(request) };
      await disableOwnSecondFactor(ctx, me, request.body.code, actor);
      return reply.status(204).send();
    },
  );

  app.get(
    "/api/second-factor/policy",
    { config: { access: ADMIN }, schema: { tags, security, summary: "Who must have a second factor" } },
    async () => ({ required: await secondFactorPolicy(ctx) }),
  );

  app.put<{ Body: { required: SecondFactorPolicy } }>(
    "/api/second-factor/policy",
    {
      config: { access: ADMIN },
      schema: { tags, security, summary: "Set who must have a second factor", body: policyBodySchema },
    },
    (request) =>
      setSecondFactorPolicy(ctx, request.body.required, {
        actorId: principalOf(request).userId,
        ...clientMeta(request),
      }),
  );

  app.delete<{ Params: { id: string } }>(
    "/api/users/:id/second-factor",
    {
      config: { access: ADMIN },
      schema: { tags, security, summary: "Reset a user's second factor", params: idParams },
    },
    async (request, reply) => {
      await resetSecondFactor(ctx, request.params.id, {
        actorId: principalOf(request).userId,
        ...clientMeta(request),
      });
      return reply.status(204).send();
    },
  );
}
