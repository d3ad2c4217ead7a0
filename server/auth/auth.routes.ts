/** Sign-in, token refresh, logout and password reset (spec §7; docs/platform-api.md). */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { RefreshRequest, SignInRequest } from "../../schemas/auth";
import {
  forgotPasswordBodySchema,
  logoutBodySchema,
  refreshBodySchema,
  resetLinkInfoBodySchema,
  resetPasswordBodySchema,
  signInBodySchema,
} from "../../schemas/auth-requests";
import { isSecondFactorChallenge } from "../../schemas/second-factor";
import type { AppContext } from "../context";
import { PUBLIC, principalOf } from "./access";
import { describeResetLink, requestPasswordReset, resetPassword, signIn } from "./auth.service";
import { type ClientMeta, revokeSession, rotateRefreshToken } from "./sessions.service";

export const clientMeta = (request: FastifyRequest): ClientMeta => ({
  ip: request.ip ?? null,
  userAgent: request.headers["user-agent"] ?? null,
});

const tags = ["auth"];

export async function authRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post<{ Body: SignInRequest }>(
    "/api/auth/signin",
    {
      config: { access: PUBLIC, secrets: { body: ["password"] } },
      schema: { tags, summary: "Sign in", body: signInBodySchema },
    },
    async (request, reply) => {
      const answer = await signIn(ctx, request.body, clientMeta(request));
      // 202: the password was right, a second step is due (no tokens yet; second-factor.routes.ts).
      if (isSecondFactorChallenge(answer)) reply.status(202);
      return answer;
    },
  );

  app.post<{ Body: RefreshRequest }>(
    "/api/auth/refreshtokenapp",
    {
      config: { access: PUBLIC, secrets: { body: ["refreshToken"] } },
      schema: { tags, summary: "Rotate the refresh token", body: refreshBodySchema },
    },
    async (request) => rotateRefreshToken(ctx, request.body.refreshToken, clientMeta(request)),
  );

  app.post(
    "/clients/logout",
    {
      // A genuine but expired access token may still sign its own device out.
      config: { access: { kind: "signedIn", allowExpired: true } },
      schema: { tags, summary: "Sign this device out", body: logoutBodySchema, security: [{ bearer: [] }] },
    },
    async (request, reply) => {
      await revokeSession(ctx, principalOf(request).sessionId, "logout");
      return reply.status(204).send();
    },
  );

  app.post<{ Body: { email: string } }>(
    "/api/auth/forgot-password",
    {
      config: { access: PUBLIC },
      schema: { tags, summary: "Mail a reset link", body: forgotPasswordBodySchema },
    },
    async (request) => ({
      message: await requestPasswordReset(ctx, request.body.email, clientMeta(request)),
    }),
  );

  app.post<{ Body: { id: string } }>(
    "/api/auth/reset-password/info",
    {
      // The id is the set-password link's secret (reset or invitation).
      config: { access: PUBLIC, secrets: { body: ["id"] } },
      schema: {
        tags,
        summary: "What a set-password link is for ('reset' or 'invite')",
        body: resetLinkInfoBodySchema,
      },
    },
    async (request) => describeResetLink(ctx, request.body.id, clientMeta(request)),
  );

  app.post<{ Body: { id: string; password: string } }>(
    "/api/auth/reset-password",
    {
      config: { access: PUBLIC, secrets: { body: ["id", "password"] } },
      schema: { tags, summary: "Set a new password", body: resetPasswordBodySchema },
    },
    async (request) => ({
      message: await resetPassword(ctx, request.body.id, request.body.password, clientMeta(request)),
    }),
  );
}
