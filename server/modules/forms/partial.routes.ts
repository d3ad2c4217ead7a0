/**
 * Partial answers, public side (issue 29): the form's script saves a visitor's answers so far
 * (`POST /forms/f/{slug}/partial`, on each Next and when they leave) and loads them back on a
 * return (`GET`, the token in the `x-atelier-resume` header). The page without JavaScript keeps
 * its token in a cookie instead (public.routes.ts). The pages a visitor has left are checked as
 * Next checked them; the page they are on is kept as typed. The token is a secret: declared in
 * each route's `config.secrets`, never logged, stored only as its hash (partial-store.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { invalidInputMessage } from "../../../schemas/error-messages";
import { answers as answerable, resumeDaysOf } from "../../../schemas/form-definition";
import { checkPages, formPages, MAX_FORM_PAGES, shownPages } from "../../../schemas/form-pages";
import type { AppContext } from "../../context";
import { badRequest, notFound } from "../../http/errors";
import type { PublishedForm } from "./forms.service";
import {
  isResumeToken,
  loadPartial,
  newResumeToken,
  RESUME_COOKIE,
  RESUME_HEADER,
  type SavedPartial,
} from "./partial-store";
import type { SubmissionWriter } from "./submission-writer";
import { trackingFromJson } from "./tracking";

/** Longest text kept of one answer in progress (the submission's own checks cut it further). */
const MAX_ANSWER = 10_000;

const slugParams = {
  type: "object",
  required: ["slug"],
  properties: { slug: { type: "string", minLength: 1, maxLength: 90 } },
} as const;

/** The answers of the form's answerable fields, as given, cut to sane sizes. */
export function answersInProgress(form: PublishedForm, raw: unknown): Record<string, unknown> {
  const given = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw : {};
  const out: Record<string, unknown> = {};
  for (const f of form.definition.fields) {
    if (!answerable(f) || !Object.hasOwn(given, f.id)) continue;
    const v = (given as Record<string, unknown>)[f.id];
    if (typeof v === "string") out[f.id] = v.slice(0, MAX_ANSWER);
    else if (typeof v === "number" || typeof v === "boolean") out[f.id] = v;
    else if (Array.isArray(v)) out[f.id] = v.filter((x) => typeof x === "string").slice(0, 200);
  }
  return out;
}

/**
 * The checks of a save on `page`: the pages before it are answered as Next asked, and the page
 * is one these answers show. 400 with per-field messages otherwise.
 */
export function checkReached(form: PublishedForm, answers: Record<string, unknown>, page: number) {
  const { fields } = form.definition;
  if (page >= formPages(fields).length)
    throw badRequest("The form has no such page", [{ field: "page", message: "The form has no such page" }]);
  const { errors } = checkPages(fields, answers, (p) => p < page);
  if (errors.length) throw badRequest(invalidInputMessage(errors), errors);
  if (!shownPages(fields, answers).includes(page))
    throw badRequest("This page is skipped for these answers", [
      { field: "page", message: "This page is skipped for these answers" },
    ]);
}

/** The resume token the page without JavaScript keeps in its cookie, if any. */
export function cookieToken(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (typeof header !== "string") return null;
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === RESUME_COOKIE && isResumeToken(rest.join("="))) return rest.join("=");
  }
  return null;
}

/** Keeps (or, with `days` 0, forgets) the token in the form's own cookie, for its pages only. */
export function setResumeCookie(
  reply: FastifyReply,
  ctx: AppContext,
  form: PublishedForm,
  token: string,
  days: number,
) {
  const secure = ctx.config.publicUrl.startsWith("https:") ? "; Secure" : "";
  reply.header(
    "set-cookie",
    `${RESUME_COOKIE}=${days ? token : ""}; Path=/forms/f/${encodeURIComponent(form.slug)}; Max-Age=${days * 86_400}; HttpOnly; SameSite=Lax${secure}`,
  );
}

/** Saves a visitor's answers so far with their token (a new one when they had none). */
export async function keepPartial(
  writer: SubmissionWriter,
  request: FastifyRequest,
  form: PublishedForm,
  item: { answers: Record<string, unknown>; page: number; tracking: ReturnType<typeof trackingFromJson> },
  given: string | null,
): Promise<SavedPartial & { token: string }> {
  const token = given && isResumeToken(given) ? given : newResumeToken();
  const saved = await writer.savePartial({ form, ...item, token, ip: request.ip });
  return { ...saved, token };
}

export async function partialRoutes(
  scope: FastifyInstance,
  ctx: AppContext,
  writer: SubmissionWriter,
  published: (slug: string, open?: boolean) => Promise<PublishedForm>,
  cors: (reply: FastifyReply) => FastifyReply,
) {
  scope.options("/forms/f/:slug/partial", { schema: { hide: true } }, async (_request, reply) =>
    cors(reply).status(204).send(),
  );

  scope.post<{
    Params: { slug: string };
    Body: { answers: Record<string, unknown>; page: number; tracking?: unknown; resumeToken?: string };
  }>(
    "/forms/f/:slug/partial",
    {
      bodyLimit: 64 * 1024,
      config: { secrets: { body: ["resumeToken"] } },
      schema: {
        tags: ["public forms"],
        summary: "Keep a visitor's answers so far (answers { resumeToken, page, expiresAt })",
        params: slugParams,
        body: {
          type: "object",
          required: ["answers", "page"],
          properties: {
            answers: { type: "object", title: "Answers" },
            page: { type: "integer", title: "Page", minimum: 0, maximum: MAX_FORM_PAGES - 1 },
            tracking: { type: "object", title: "Tracking" },
            resumeToken: { type: "string", title: "Resume token", maxLength: 100 },
          },
        },
      },
    },
    async (request, reply) => {
      cors(reply);
      const form = await published(request.params.slug, true);
      const answers = answersInProgress(form, request.body.answers);
      checkReached(form, answers, request.body.page);
      const tracking = trackingFromJson(
        form.definition.settings,
        request.body.tracking,
        String(request.headers["user-agent"] ?? ""),
      );
      const saved = await keepPartial(
        writer,
        request,
        form,
        { answers, page: request.body.page, tracking },
        request.body.resumeToken ?? null,
      );
      return { resumeToken: saved.token, page: request.body.page, expiresAt: saved.expiresAt };
    },
  );

  scope.get<{ Params: { slug: string } }>(
    "/forms/f/:slug/partial",
    {
      config: { secrets: { headers: [RESUME_HEADER] } },
      schema: {
        tags: ["public forms"],
        summary: "A visitor's answers so far, by the resume token in the x-atelier-resume header",
        params: slugParams,
      },
    },
    async (request, reply) => {
      cors(reply).header("cache-control", "no-store");
      const form = await published(request.params.slug, true);
      const token = request.headers[RESUME_HEADER];
      const found = typeof token === "string" ? await loadPartial(ctx, form.id, token) : null;
      if (!found) throw notFound("No saved answers for this visitor, or they have expired");
      return { answers: found.answers, page: found.page, expiresAt: found.expiresAt };
    },
  );
}

/** The resume window of a form, in days (its cookie lasts as long). */
export const resumeDays = (form: PublishedForm) => resumeDaysOf(form.definition.settings);
