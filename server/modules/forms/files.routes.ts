/**
 * Files of a public form's file fields: each is sent on its own as soon as it is picked
 * (`POST /forms/f/{slug}/files`, multipart, one `file` part, `?field=` naming the field), typed
 * by its content through the storage layer (never by its name), checked against the field's
 * allowed types and size, stored, and answered with a token. The submission names the tokens;
 * storing it claims them. Files never claimed are removed after a day.
 */
import { randomBytes } from "node:crypto";
import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import type { FieldError } from "../../../schemas/error-messages";
import type { FormFieldDef } from "../../../schemas/form-definition";
import { hit } from "../../auth/rate-limit";
import type { AppContext } from "../../context";
import { badRequest, HttpError } from "../../http/errors";
import { multipartParts } from "../../http/multipart";
import type { FileKind } from "../../storage/sniff";
import { storeUpload } from "../../storage/upload";
import type { PublishedForm } from "./forms.service";

/** Uploads per address and minute, before any submission. */
const UPLOADS_PER_MINUTE = 60;
const MB = 1024 * 1024;
/** Loose files are looked for at most this often per instance, after an upload. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** A size limit in words: "10 MB", "0.5 MB", "10 KB". */
export const megabytes = (bytes: number) =>
  bytes >= 100 * 1024
    ? `${Number((bytes / MB).toFixed(2))} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** Whether a file of `kind` and `name` is among a field's allowed types (`image/*`, `application/pdf`, `.pdf`). */
export function fileAllowed(field: Pick<FormFieldDef, "validation">, kind: FileKind, name: string): boolean {
  const accept = field.validation.accept ?? [];
  if (!accept.length) return true;
  const ext = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "";
  return accept.some((a) => {
    const rule = a.trim().toLowerCase();
    if (rule.startsWith("."))
      return kind.extensions.includes(rule.slice(1)) && (!ext || ext === rule.slice(1));
    if (rule.endsWith("/*")) return kind.mime.startsWith(rule.slice(0, -1));
    return kind.mime === rule;
  });
}

export async function formFileRoutes(
  scope: FastifyInstance,
  ctx: AppContext,
  published: (slug: string, open?: boolean) => Promise<PublishedForm>,
) {
  let lastSweep = 0;
  await scope.register(async (files) => {
    await files.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: 50 * MB + 1, files: 1, fields: 2, fieldSize: 256 },
    });
    files.options("/forms/f/:slug/files", { schema: { hide: true } }, async (_request, reply) =>
      reply
        .headers({
          "access-control-allow-origin": "*",
          "access-control-allow-methods": "POST",
          "access-control-max-age": "600",
        })
        .status(204)
        .send(),
    );
    files.post<{ Params: { slug: string }; Querystring: { field?: string } }>(
      "/forms/f/:slug/files",
      {
        schema: {
          tags: ["public forms"],
          summary: "Upload one file for a file field of a published form; answers its token",
          params: { type: "object", properties: { slug: { type: "string", maxLength: 90 } } },
          querystring: { type: "object", properties: { field: { type: "string", maxLength: 63 } } },
        },
      },
      async (request, reply) => {
        reply.header("access-control-allow-origin", "*");
        const form = await published(request.params.slug, true);
        const fileFields = form.definition.fields.filter((f) => f.kind === "file");
        const named = request.query.field;
        const candidates = named ? fileFields.filter((f) => f.id === named) : fileFields;
        if (!candidates.length)
          throw badRequest("This form takes no file there", [
            { field: "field", message: "is not a file field of the form" },
          ]);
        if ((await hit(ctx.db, `form-files:${request.ip}`, 60)) > UPLOADS_PER_MINUTE)
          throw new HttpError(429, "Too many files from your address; try again in a minute");
        if (!request.isMultipart())
          throw badRequest("Send the file as multipart/form-data", [
            { field: "file", message: "is required" },
          ]);
        const largest = Math.max(...candidates.map((f) => (f.validation.maxSizeMb ?? 10) * MB));
        for await (const part of multipartParts(request)) {
          if (part.type !== "file" || part.fieldname !== "file") {
            if (part.type === "file") part.file.resume();
            continue;
          }
          let field = undefined as FormFieldDef | undefined;
          const stored = await storeUpload(
            ctx.storage,
            part,
            { maxBytes: largest, maxPixels: ctx.config.imageMaxPixels },
            (kind) => {
              field = candidates.find((f) => fileAllowed(f, kind, part.filename));
              return field !== undefined;
            },
            "forms",
          );
          const limit = (field?.validation.maxSizeMb ?? 10) * MB;
          if (!field || stored.size > limit) {
            await ctx.storage.delete([stored.key]);
            throw new HttpError(413, `${stored.originalName} is larger than ${megabytes(limit)}`);
          }
          const token = randomBytes(18).toString("base64url");
          await ctx.db
            .insertInto("form_files")
            .values({
              token,
              form_id: form.id,
              field_id: field.id,
              storage_key: stored.key,
              file_name: stored.originalName,
              content_type: stored.kind.mime,
              size: stored.size,
              submission_id: null,
            })
            .execute();
          if (Date.now() - lastSweep > SWEEP_EVERY_MS) {
            lastSweep = Date.now();
            removeLooseFiles(ctx).catch((err) => request.log.warn({ err }, "loose form files not removed"));
          }
          return reply
            .status(201)
            .send({ id: token, name: stored.originalName, size: stored.size, type: stored.kind.mime });
        }
        throw badRequest("Send the file as the `file` part", [{ field: "file", message: "is required" }]);
      },
    );
  });
}

/**
 * The file tokens of checked answers, every one verified to be this form's and field's and not
 * yet claimed; a token that is not adds its field's error. Answers only the tokens.
 */
export async function claimableFiles(
  ctx: AppContext,
  form: PublishedForm,
  values: Record<string, unknown>,
  errors: FieldError[],
): Promise<string[]> {
  const wanted = form.definition.fields
    .filter((f) => f.kind === "file" && Array.isArray(values[f.id]))
    .map((f) => ({ field: f, tokens: values[f.id] as string[] }));
  const tokens = wanted.flatMap((w) => w.tokens);
  if (!tokens.length) return [];
  const rows = await ctx.db
    .selectFrom("form_files")
    .select(["token", "field_id"])
    .where("token", "in", tokens)
    .where("form_id", "=", form.id)
    .where("submission_id", "is", null)
    .execute();
  const found = new Map(rows.map((r) => [r.token, r.field_id]));
  for (const w of wanted)
    if (w.tokens.some((t) => found.get(t) !== w.field.id))
      errors.push({
        field: w.field.id,
        message: `${w.field.label}: a file was not uploaded, or was sent already; choose it again`,
      });
  return tokens;
}

const LOOSE_AFTER = "1 day";

/**
 * Removes loose files: of a deleted form or submission, or uploaded and never sent within a
 * day. Stored objects first, then their rows, so a failure leaves them for the next round.
 */
export async function removeLooseFiles(ctx: Pick<AppContext, "db" | "storage">): Promise<number> {
  const rows = await ctx.db
    .selectFrom("form_files")
    .select(["token", "storage_key"])
    .where((eb) =>
      eb.or([
        eb("form_id", "is", null),
        eb.and([
          eb("submission_id", "is", null),
          eb("created_at", "<", sql<Date>`now() - ${LOOSE_AFTER}::interval`),
        ]),
      ]),
    )
    .limit(500)
    .execute();
  if (!rows.length) return 0;
  await ctx.storage.delete(rows.map((r) => r.storage_key));
  await ctx.db
    .deleteFrom("form_files")
    .where(
      "token",
      "in",
      rows.map((r) => r.token),
    )
    .execute();
  return rows.length;
}
