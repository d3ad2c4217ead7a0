/**
 * `/api/me/preferences/:key`: the signed-in user's own preferences (GET, PUT, DELETE).
 * Signed in is the only rule: each route reads and writes the caller's rows and no one else's.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AjvErrorLike } from "../../../schemas/error-messages";
import {
  PREFERENCE_KEY_PATTERN,
  PREFERENCE_KEY_PATTERN_MESSAGE,
  PREFERENCE_KEY_RULE,
  PREFERENCE_VALUE_MAX_BYTES,
  type PreferenceWrite,
} from "../../../schemas/preferences";
import { principalOf, SIGNED_IN } from "../../auth/access";
import type { AppContext } from "../../context";
import { badRequest, fieldErrors } from "../../http/errors";
import { deletePreference, getPreference, putPreference } from "./preferences.service";

const tags = ["preferences"];
const security = [{ bearer: [] }];

const keyParams = {
  type: "object",
  required: ["key"],
  properties: {
    key: {
      type: "string",
      title: "Key",
      pattern: PREFERENCE_KEY_PATTERN,
      "x-patternMessage": PREFERENCE_KEY_PATTERN_MESSAGE,
      description: `The preference's name, such as \`list-columns:products\` or \`ui.menuClose\`. It ${PREFERENCE_KEY_PATTERN_MESSAGE}.`,
    },
  },
} as const;

const preferenceSchema = {
  type: "object",
  required: ["key", "value"],
  properties: {
    key: { type: "string" },
    value: { description: "Any JSON value; null when the user never set this key." },
    updated_at: { type: "string", format: "date-time", description: "Absent when never set." },
  },
} as const;

const bodySchema = {
  type: "object",
  required: ["value"],
  additionalProperties: false,
  properties: {
    value: {
      title: "Value",
      description: `Any JSON value but null, at most ${PREFERENCE_VALUE_MAX_BYTES / 1024} KB written as JSON.`,
    },
  },
} as const;

type KeyRequest = FastifyRequest<{ Params: { key: string } }>;

/**
 * Schema errors, in words. Routes here validate with `attachValidation`, so that a bad key is
 * explained by its rule instead of Ajv's "must match pattern …".
 */
function refuseInvalid(request: FastifyRequest) {
  const error = request.validationError as (Error & { validation?: AjvErrorLike[] }) | undefined;
  if (!error) return;
  const where = request.validationError?.validationContext === "params" ? "address" : "body";
  const details = fieldErrors(error.validation ?? []).map((d) =>
    d.field === "key" ? { field: "key", message: PREFERENCE_KEY_RULE } : d,
  );
  throw badRequest(`Invalid ${where}: please correct the highlighted fields`, details);
}

/** A preference's key names a setting (`crm.board.columns`), not a secret. */
const config = { access: SIGNED_IN, secrets: { notSecret: ["key"] } };

export async function preferencesRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Params: { key: string } }>(
    "/api/me/preferences/:key",
    {
      config,
      attachValidation: true,
      schema: {
        tags,
        security,
        summary: "One of my preferences",
        params: keyParams,
        response: { 200: preferenceSchema },
      },
    },
    (request: KeyRequest) => {
      refuseInvalid(request);
      return getPreference(ctx, principalOf(request).userId, request.params.key);
    },
  );

  app.put<{ Params: { key: string }; Body: PreferenceWrite }>(
    "/api/me/preferences/:key",
    {
      config,
      attachValidation: true,
      // A preference is small: a big body is refused (413) before it is parsed.
      bodyLimit: PREFERENCE_VALUE_MAX_BYTES * 4,
      schema: {
        tags,
        security,
        summary: "Set one of my preferences",
        params: keyParams,
        body: bodySchema,
        response: { 200: preferenceSchema },
      },
    },
    (request) => {
      refuseInvalid(request);
      return putPreference(ctx, principalOf(request).userId, request.params.key, request.body.value);
    },
  );

  app.delete<{ Params: { key: string } }>(
    "/api/me/preferences/:key",
    {
      config,
      attachValidation: true,
      schema: { tags, security, summary: "Forget one of my preferences", params: keyParams },
    },
    async (request: KeyRequest, reply) => {
      refuseInvalid(request);
      await deletePreference(ctx, principalOf(request).userId, request.params.key);
      return reply.status(204).send();
    },
  );
}
