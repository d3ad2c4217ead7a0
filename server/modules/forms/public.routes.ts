/**
 * Public forms, no sign-in (the forms base): the form's page (`/forms/f/{slug}`, rendered here so
 * it works without JavaScript, then enhanced by its own light bundle), its definition
 * (`/forms/f/{slug}.json`), the embed script, file uploads and submissions (JSON from the
 * script, or the plain form's post). Only published forms are served; every answer is checked
 * by the same code the browser ran (schemas/form-answers.ts).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type FieldError, invalidInputMessage } from "../../../schemas/error-messages";
import { checkAnswers } from "../../../schemas/form-answers";
import { HONEYPOT_FIELD } from "../../../schemas/form-definition";
import { checkPages, isMultiPage, pageOfFields, shownPages, stepPage } from "../../../schemas/form-pages";
import { toPublicForm } from "../../../src/forms-public/public-form";
import {
  NAV_INPUT,
  PAGE_INPUT,
  pageToShow,
  type RenderOptions,
  renderFormDocument,
  renderFormHtml,
} from "../../../src/forms-public/render";
import { markScopePublic } from "../../auth/access";
import type { AppContext } from "../../context";
import { builtPage } from "../../http/built-pages";
import { badRequest, HttpError, notFound } from "../../http/errors";
import { idempotencyKeyOf } from "../../http/idempotency";
import { pageHeaders } from "../../http/security-headers";
import { claimableFiles, formFileRoutes } from "./files.routes";
import type { FormsService, PublishedForm } from "./forms.service";
import {
  answersInProgress,
  cookieToken,
  keepPartial,
  partialRoutes,
  resumeDays,
  setResumeCookie,
} from "./partial.routes";
import { isResumeToken, loadPartial } from "./partial-store";
import { blank, parseForm, pickTracking, queryOf } from "./plain-form-input";
import type { SubmissionWriter } from "./submission-writer";
import { trackingFromFields, trackingFromJson } from "./tracking";
import type { ViewCounter } from "./view-counter";

/** Largest submission body. */
export const MAX_SUBMISSION_BYTES = 64 * 1024;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$/;
const CLOSED = "This form is closed and takes no more answers";

/** The form's page path (never the request's own URL, which may name another host). */
const pagePath = (slug: string) => `/forms/f/${encodeURIComponent(slug)}`;

const slugParams = {
  type: "object",
  required: ["slug"],
  properties: { slug: { type: "string", minLength: 1, maxLength: 90 } },
} as const;

export async function publicFormRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  services: { forms: FormsService; writer: SubmissionWriter; views: ViewCounter },
) {
  const { forms, writer, views } = services;

  /** The published form of a slug: 404 when there is none, 410 when it takes no answers. */
  async function published(slug: string, open = false): Promise<PublishedForm> {
    const form = SLUG.test(slug) ? await forms.bySlug(slug) : null;
    if (!form) throw notFound("No such form");
    if (open && !form.accepting) throw new HttpError(410, CLOSED);
    return form;
  }

  const publicOf = (form: PublishedForm) => toPublicForm(form, form.version, form.definition);

  function page(
    reply: FastifyReply,
    form: PublishedForm,
    html: { state: "open" | "sent" | "closed"; embed: boolean; formHtml?: string },
    status = 200,
  ) {
    const built = builtPage(path.join(ctx.config.clientDir, "form.html"));
    if (!built)
      return reply
        .status(503)
        .type("text/plain")
        .send("The forms page is not built yet: run `npm run build`.");
    const pf = publicOf(form);
    const body = renderFormDocument(built.html.toString("utf8"), pf, {
      formHtml: html.formHtml ?? renderFormHtml(pf),
      title: form.name,
      state: html.state,
      embed: html.embed,
    });
    return reply
      .status(status)
      .headers({
        "cache-control": "no-store",
        ...pageHeaders(ctx.config, "public", { scriptHashes: built.scriptHashes, frameAncestors: ["*"] }),
      })
      .type("text/html; charset=utf-8")
      .send(body);
  }

  /** The tracked parameters of the page's own address, as the plain form's hidden inputs. */
  function trackingInputs(form: PublishedForm, request: FastifyRequest): Record<string, string> {
    const query = request.query as Record<string, unknown>;
    const out: Record<string, string> = {};
    for (const name of publicOf(form).settings.utm.parameters)
      if (typeof query[name] === "string" && query[name]) out[name] = (query[name] as string).slice(0, 500);
    out.landing = `${ctx.config.publicUrl}${pagePath(form.slug)}${queryOf(request.url)}`.slice(0, 2000);
    const referrer = request.headers.referer;
    if (typeof referrer === "string") out.referrer = referrer.slice(0, 2000);
    return out;
  }

  const cors = (reply: FastifyReply) =>
    reply.headers({
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET, POST",
      "access-control-allow-headers": "content-type, idempotency-key, x-atelier-resume",
      "access-control-max-age": "600",
    });

  await app.register(async (scope) => {
    markScopePublic(scope);
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: MAX_SUBMISSION_BYTES },
      (_request, body, done) => done(null, parseForm(body as string)),
    );
    await formFileRoutes(scope, ctx, published);
    await partialRoutes(scope, ctx, writer, published, cors);

    let embedScript: { body: Buffer; at: number } | null = null;
    scope.get("/forms/embed.js", { schema: { hide: true } }, async (_request, reply) => {
      if (!embedScript || Date.now() - embedScript.at > 10_000) {
        try {
          embedScript = {
            body: await readFile(path.join(ctx.config.clientDir, "assets", "embed.js")),
            at: Date.now(),
          };
        } catch {
          return reply
            .status(503)
            .type("text/plain")
            .send("The embed script is not built yet: run `npm run build`.");
        }
      }
      return reply
        .headers({ "cache-control": "public, max-age=300", "access-control-allow-origin": "*" })
        .type("text/javascript; charset=utf-8")
        .send(embedScript.body);
    });

    scope.get<{ Params: { slug: string }; Querystring: Record<string, string> }>(
      "/forms/f/:slug",
      {
        schema: {
          tags: ["public forms"],
          summary: "A published form: its page (HTML), or its definition with .json after the slug",
          params: slugParams,
        },
      },
      async (request, reply) => {
        const query = request.query;
        const source = typeof query.utm_source === "string" ? query.utm_source : "";
        if (request.params.slug.endsWith(".json")) {
          // A closed form's definition answers 410, so an embed says it is closed at once.
          const form = await published(request.params.slug.slice(0, -5), true);
          if (query.view === "1") views.count(form.id, source);
          return cors(reply).header("cache-control", "no-cache").send(publicOf(form));
        }
        const form = await published(request.params.slug);
        const embed = query.embed === "1";
        if (!form.accepting) return page(reply, form, { state: "closed", embed });
        if (query.sent === "1") return page(reply, form, { state: "sent", embed });
        views.count(form.id, source);
        // A return without JavaScript: the answers its cookie's token kept, on the page left.
        const token = cookieToken(request);
        const resumed = token ? await loadPartial(ctx, form.id, token) : null;
        const formHtml = renderFormHtml(publicOf(form), {
          action: `${pagePath(form.slug)}/submissions${embed ? "?embed=1" : ""}`,
          tracking: trackingInputs(form, request),
          ...(resumed ? { values: resumed.answers, page: resumed.page } : {}),
        });
        return page(reply, form, { state: "open", embed, formHtml });
      },
    );

    scope.options("/forms/f/:slug/submissions", { schema: { hide: true } }, async (_request, reply) =>
      cors(reply).status(204).send(),
    );

    scope.post<{ Params: { slug: string }; Querystring: { embed?: string }; Body: unknown }>(
      "/forms/f/:slug/submissions",
      {
        bodyLimit: MAX_SUBMISSION_BYTES,
        config: { idempotent: true, secrets: { body: ["resumeToken"] } },
        schema: {
          tags: ["public forms"],
          summary: "Send an answer to a published form (JSON, or the plain form's post)",
          params: slugParams,
          // Both kinds are objects; the answers themselves are checked against the form.
          body: {
            type: "object",
            properties: {
              answers: { type: "object", title: "Answers" },
              tracking: { type: "object", title: "Tracking" },
            },
          },
        },
      },
      async (request, reply) => {
        cors(reply);
        const type = String(request.headers["content-type"] ?? "")
          .split(";")[0]
          .trim()
          .toLowerCase();
        const plain = type !== "application/json";
        const embedded = request.query.embed === "1";
        const form = await published(request.params.slug);
        // The plain form hears a closed form or the limit as a page, not as JSON.
        if (!form.accepting) {
          if (plain) return page(reply, form, { state: "closed", embed: embedded }, 410);
          throw new HttpError(410, CLOSED);
        }
        const body = (request.body ?? {}) as Record<string, unknown>;
        if (typeof body !== "object" || Array.isArray(body))
          throw badRequest("Send the answers as a JSON object", [
            { field: "answers", message: "Answers must be an object" },
          ]);
        const userAgent = String(request.headers["user-agent"] ?? "");
        const raw = (plain ? body : (body.answers ?? {})) as Record<string, unknown>;
        const tracking = plain
          ? trackingFromFields(form.definition.settings, body, userAgent)
          : trackingFromJson(form.definition.settings, body.tracking, userAgent);
        const honeypot = body[HONEYPOT_FIELD];
        // Where the plain form goes once sent: its page, saying so.
        const sentPage = `${pagePath(form.slug)}?sent=1${embedded ? "&embed=1" : ""}`;
        // A filled honeypot is a bot: it hears what a person would, and nothing is stored.
        if (!blank(honeypot)) {
          if (plain) return reply.status(303).header("location", sentPage).send();
          return reply
            .status(201)
            .send({ id: null, message: form.definition.settings.submit.successMessage });
        }
        const nav = plain ? body[NAV_INPUT] : undefined;
        if ((nav === "next" || nav === "back") && isMultiPage(form.definition.fields)) {
          // Not the reply itself: a reply is thenable, and awaiting it waits for nothing useful.
          if (await plainStep(reply, request, form, raw, nav, tracking)) return reply;
        }
        const { values, errors } = checkAnswers(
          form.definition.fields,
          typeof raw === "object" && raw ? raw : {},
        );
        const files = await claimableFiles(ctx, form, values, errors);
        if (errors.length) return refuse(reply, form, errors, plain, raw, tracking.parameters, request);
        const key = idempotencyKeyOf(request);
        const stored = await writer
          .submit({
            form,
            answers: values,
            tracking,
            // Scoped to the sender as the key store scopes it: two people's keys never meet.
            idempotencyKey: key === null ? null : `ip:${request.ip}:${key}`,
            files,
            ip: request.ip,
            resumeToken: plain
              ? cookieToken(request)
              : isResumeToken(body.resumeToken)
                ? body.resumeToken
                : null,
          })
          .catch((error) => {
            if (!plain || !(error instanceof HttpError) || error.statusCode !== 429) throw error;
            return null;
          });
        if (stored === null) {
          const formHtml = renderFormHtml(publicOf(form), {
            action: `${pagePath(form.slug)}/submissions${embedded ? "?embed=1" : ""}`,
            values: raw,
            errors: [
              { field: "_form", message: "Too many answers from your address; try again in a minute" },
            ],
            tracking: { ...tracking.parameters, ...pickTracking(raw) },
          });
          return page(reply, form, { state: "open", embed: embedded, formHtml }, 429);
        }
        if (plain) {
          if (cookieToken(request)) setResumeCookie(reply, ctx, form, "", 0);
          return reply.status(303).header("location", sentPage).send();
        }
        return reply
          .status(201)
          .send({ id: stored.id, message: form.definition.settings.submit.successMessage });
      },
    );
  });

  /**
   * Back or Next on the page without JavaScript: Back shows the page before (nothing checked);
   * Next checks the pages so far, keeps the answers (its token in the form's cookie) and shows
   * the next page, or the same page with its errors. False when there is no next page: the
   * post is then the form's sending.
   */
  async function plainStep(
    reply: FastifyReply,
    request: FastifyRequest,
    form: PublishedForm,
    raw: Record<string, unknown>,
    nav: "next" | "back",
    tracking: ReturnType<typeof trackingFromFields>,
  ): Promise<boolean> {
    const { fields } = form.definition;
    const current = pageToShow(shownPages(fields, raw), Number(raw[PAGE_INPUT]));
    const target = stepPage(fields, raw, current, nav === "next" ? 1 : -1);
    const again = (opts: Partial<RenderOptions>, status = 200) => {
      pageWith(reply, form, request, raw, tracking.parameters, { page: current, ...opts }, status);
      return true;
    };
    if (nav === "back") return again({ page: target ?? current });
    const { errors } = checkPages(fields, raw, (p) => p <= current);
    if (errors.length) {
      const pageOf = pageOfFields(fields);
      return again({ errors, page: Math.min(...errors.map((e) => pageOf.get(e.field) ?? current)) }, 400);
    }
    if (target === null) return false;
    const saved = await keepPartial(
      writer,
      request,
      form,
      { answers: answersInProgress(form, raw), page: target, tracking },
      cookieToken(request),
    ).catch((error) => {
      // Over the address's limit: the visitor goes on, their answers not kept this time.
      if (error instanceof HttpError && error.statusCode === 429) return null;
      throw error;
    });
    if (saved) setResumeCookie(reply, ctx, form, saved.token, resumeDays(form));
    return again({ page: target });
  }

  /** The form's page again with the answers posted, on a page, with errors or not. */
  function pageWith(
    reply: FastifyReply,
    form: PublishedForm,
    request: FastifyRequest,
    raw: Record<string, unknown>,
    parameters: Record<string, string>,
    opts: Partial<RenderOptions>,
    status: number,
  ) {
    const embed = (request.query as { embed?: string }).embed === "1";
    const formHtml = renderFormHtml(publicOf(form), {
      action: `${pagePath(form.slug)}/submissions${embed ? "?embed=1" : ""}`,
      values: raw,
      tracking: { ...parameters, ...pickTracking(raw) },
      ...opts,
    });
    return page(reply, form, { state: "open", embed, formHtml }, status);
  }

  /** 400: JSON with per-field details, or the page again with its errors and the answers kept. */
  function refuse(
    reply: FastifyReply,
    form: PublishedForm,
    errors: FieldError[],
    plain: boolean,
    raw: Record<string, unknown>,
    parameters: Record<string, string>,
    request: FastifyRequest,
  ) {
    if (!plain) throw badRequest(invalidInputMessage(errors), errors);
    // A multi-page form opens on the page of the first answer to fix.
    const pageOf = pageOfFields(form.definition.fields);
    const first = form.definition.fields.find((f) => errors.some((e) => e.field === f.id));
    return pageWith(
      reply,
      form,
      request,
      raw,
      parameters,
      { errors, page: pageOf.get(first?.id ?? "") },
      400,
    );
  }
}
