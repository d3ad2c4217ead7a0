/**
 * Resumable PDF uploads, so a dropped connection does not restart a 200 MB catalogue:
 *
 *   POST   /api/pdfs/uploads                      { fileName, size, name?, pdfId?, chunkSize? } → 201 state
 *   PUT    /api/pdfs/uploads/{id}/chunks/{index}  raw bytes (application/octet-stream) → state
 *   GET    /api/pdfs/uploads/{id}                 → state (`received`: chunks stored)
 *   POST   /api/pdfs/uploads/{id}/complete        → the PDF (201 new, 200 replaced file)
 *   DELETE /api/pdfs/uploads/{id}                 → 204
 *
 * Chunks are stored objects, so any instance takes any chunk and nothing is held in memory;
 * `complete` streams them, in order, into the catalogue's file. The first chunk must be a PDF.
 * A client resumes by asking which chunks arrived and sending the others.
 *
 * An upload belongs to the user who started it (`created_by`, in the database so every
 * instance agrees): nobody else can read its state, add chunks, complete or cancel it.
 */
import { Readable, Transform } from "node:stream";
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { PDF_UPLOAD_CHUNK, type PdfUploadState } from "../../../schemas/pdf-library";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { badRequest, HttpError, notFound } from "../../http/errors";
import { idParams, uuid } from "../../http/route-params";
import type { ResourceService } from "../../resources/service";
import { KINDS, sniff } from "../../storage/sniff";
import { newKey } from "../../storage/storage";
import { displayName } from "../../storage/upload";
import { uploadChunkKey } from "./pdf.keys";
import type { PdfService } from "./pdf.service";

const tags = ["pdfs"];
const security = [{ bearer: [] }];
const config = { access: moduleAccess(MODULE_IDS.pdf) };

interface UploadRow {
  id: string;
  name: string;
  original_name: string;
  size: string;
  chunk_size: number;
  received: number[];
  pdf_id: string | null;
}

const UPLOAD_GONE = "Upload not found (it was completed, cancelled, or never started)";

const chunkCount = (row: Pick<UploadRow, "size" | "chunk_size">) =>
  Math.ceil(Number(row.size) / row.chunk_size);
const chunkLength = (row: Pick<UploadRow, "size" | "chunk_size">, index: number) =>
  Math.min(row.chunk_size, Number(row.size) - index * row.chunk_size);

const stateOf = (row: UploadRow): PdfUploadState => ({
  id: row.id,
  size: Number(row.size),
  chunkSize: row.chunk_size,
  received: [...row.received].sort((a, b) => a - b),
});

/** Passes at most `max` bytes; more is an error (the chunk is refused, not truncated). */
function capped(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max)
        done(badRequest("The chunk is longer than announced", [{ field: "body", message: "too long" }]));
      else done(null, chunk);
    },
  });
}

export async function uploadRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  pdfs: PdfService,
  resource: ResourceService,
) {
  /**
   * An upload of the signed-in user. Someone else's (any other user, admins included) is
   * answered exactly like a missing one, so upload ids cannot be confirmed by probing.
   */
  const find = async (id: string, ownerId: string): Promise<UploadRow> => {
    const row = await ctx.db
      .selectFrom("pdf_uploads")
      .selectAll()
      .where("id", "=", id)
      .where("created_by", "=", ownerId)
      .executeTakeFirst();
    if (!row) throw notFound(UPLOAD_GONE);
    return row;
  };
  const removeChunks = (row: UploadRow) =>
    ctx.storage.delete(Array.from({ length: chunkCount(row) }, (_, i) => uploadChunkKey(row.id, i)));

  app.post<{ Body: { fileName: string; size: number; name?: string; pdfId?: string; chunkSize?: number } }>(
    "/api/pdfs/uploads",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Start a resumable PDF upload (pdfId: replace that PDF's file)",
        body: {
          type: "object",
          additionalProperties: false,
          required: ["fileName", "size"],
          properties: {
            fileName: { type: "string", minLength: 1, maxLength: 255 },
            size: { type: "integer", minimum: 1 },
            name: { type: "string", maxLength: 200 },
            pdfId: uuid,
            chunkSize: { type: "integer", minimum: 64 * 1024, maximum: 64 * 1024 * 1024 },
          },
        },
      },
    },
    async (request, reply) => {
      const { fileName, size, name, pdfId, chunkSize = PDF_UPLOAD_CHUNK } = request.body;
      const max = ctx.config.uploadMaxBytes;
      if (size > max) {
        const mb = Math.round(max / 1024 / 1024);
        throw new HttpError(413, `${fileName}: the file is larger than ${mb} MB`, [
          { field: "size", message: `is larger than ${mb} MB` },
        ]);
      }
      if (!/\.pdf$/i.test(fileName))
        throw badRequest("Only PDF files can be uploaded", [
          { field: "fileName", message: "must end in .pdf" },
        ]);
      if (pdfId && !(await pdfs.exists(pdfId))) throw notFound("PDF not found");
      const original = displayName(fileName);
      const row = await ctx.db
        .insertInto("pdf_uploads")
        .values({
          name: name?.trim() ?? "",
          original_name: original,
          size,
          chunk_size: chunkSize,
          pdf_id: pdfId ?? null,
          created_by: principalOf(request).userId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return reply.status(201).send(stateOf(row));
    },
  );

  app.get<{ Params: { id: string } }>(
    "/api/pdfs/uploads/:id",
    { config, schema: { tags, security, summary: "Which chunks of an upload arrived", params: idParams } },
    async (request) => stateOf(await find(request.params.id, principalOf(request).userId)),
  );

  await app.register(async (scope) => {
    // Chunks are raw bytes, streamed to storage as they come.
    scope.addContentTypeParser("application/octet-stream", (_request, payload, done) => done(null, payload));
    scope.put<{ Params: { id: string; index: number }; Body: Readable }>(
      "/api/pdfs/uploads/:id/chunks/:index",
      {
        config,
        schema: {
          tags,
          security,
          summary: "Store one chunk (application/octet-stream); sending it again replaces it",
          params: {
            type: "object",
            required: ["id", "index"],
            properties: { id: uuid, index: { type: "integer", minimum: 0, maximum: 100000 } },
          },
          consumes: ["application/octet-stream"],
        },
      },
      async (request) => {
        const row = await find(request.params.id, principalOf(request).userId);
        const { index } = request.params;
        if (index >= chunkCount(row)) {
          throw badRequest(`This upload has ${chunkCount(row)} chunks`, [
            { field: "index", message: "is past the end" },
          ]);
        }
        const expected = chunkLength(row, index);
        if (!(request.body instanceof Readable)) {
          throw badRequest("Send the chunk as application/octet-stream", [
            { field: "body", message: "is required" },
          ]);
        }
        const key = uploadChunkKey(row.id, index);
        const stored = await ctx.storage.put(
          key,
          request.body.pipe(capped(expected)),
          "application/octet-stream",
        );
        if (stored.size !== expected) {
          await ctx.storage.delete([key]);
          throw badRequest(`Chunk ${index} must be ${expected} bytes, not ${stored.size}`, [
            { field: "body", message: `must be ${expected} bytes` },
          ]);
        }
        if (index === 0) {
          const head = await ctx.storage.get(key, { start: 0, end: Math.min(expected, 4096) - 1 });
          const bytes: Buffer[] = [];
          for await (const b of head?.body ?? []) bytes.push(b as Buffer);
          if (sniff(Buffer.concat(bytes))?.mime !== KINDS.pdf.mime) {
            await ctx.storage.delete([key]);
            throw badRequest(`${row.original_name}: this file is not a PDF`, [
              { field: "file", message: "is not a PDF" },
            ]);
          }
        }
        const updated = await ctx.db
          .updateTable("pdf_uploads")
          .set((eb) => ({
            received: eb.fn("array_append", [
              eb.fn("array_remove", ["received", eb.val(index)]),
              eb.val(index),
            ]),
            updated_at: new Date(),
          }))
          .where("id", "=", row.id)
          .returningAll()
          .executeTakeFirst();
        if (!updated) throw notFound("Upload not found (it was cancelled)");
        return stateOf(updated);
      },
    );
  });

  app.post<{ Params: { id: string } }>(
    "/api/pdfs/uploads/:id/complete",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Assemble the chunks into the PDF and queue it for processing",
        params: idParams,
      },
    },
    async (request, reply) => {
      const actor = principalOf(request).userId;
      const row = await find(request.params.id, actor);
      const count = chunkCount(row);
      const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !row.received.includes(i));
      if (missing.length) {
        throw badRequest(`${missing.length} of ${count} chunks are still missing`, [
          { field: "received", message: `missing chunks ${missing.slice(0, 20).join(", ")}` },
        ]);
      }
      // Claimed by removing its row, in one statement: of two completes at once (a double
      // click, a retry after a timeout) only one assembles the file; the other finds no upload,
      // instead of making a second PDF or reading chunks the first is deleting.
      const claimed = await ctx.db
        .deleteFrom("pdf_uploads")
        .where("id", "=", row.id)
        .where("created_by", "=", actor)
        .returningAll()
        .executeTakeFirst();
      if (!claimed) throw notFound(UPLOAD_GONE);
      const key = newKey("pdfs", "pdf");
      const body = Readable.from(
        (async function* () {
          for (let i = 0; i < count; i++) {
            const chunk = await ctx.storage.get(uploadChunkKey(row.id, i));
            if (!chunk) throw new Error(`chunk ${i} of upload ${row.id} is missing`);
            yield* chunk.body;
          }
        })(),
      );
      let stored: Awaited<ReturnType<typeof ctx.storage.put>>;
      try {
        stored = await ctx.storage.put(key, body, KINDS.pdf.mime);
      } catch (error) {
        // Nothing was made: the upload is put back, so the owner may complete it again.
        await ctx.db
          .insertInto("pdf_uploads")
          .values({ ...claimed, size: Number(claimed.size) })
          .execute()
          .catch((err) => request.log.warn({ err }, "could not restore an upload after a failed complete"));
        throw error;
      }
      const upload = {
        key,
        kind: KINDS.pdf,
        size: stored.size,
        width: null,
        height: null,
        originalName: row.original_name,
      };
      await removeChunks(row);
      if (row.pdf_id) {
        await pdfs.replaceFile(row.pdf_id, upload, actor);
        return resource.get(row.pdf_id);
      }
      const id = await pdfs.create(upload, row.name || undefined, actor);
      return reply.status(201).send(await resource.get(id));
    },
  );

  app.delete<{ Params: { id: string } }>(
    "/api/pdfs/uploads/:id",
    { config, schema: { tags, security, summary: "Cancel an upload and drop its chunks", params: idParams } },
    async (request, reply) => {
      const row = await find(request.params.id, principalOf(request).userId);
      await ctx.db.deleteFrom("pdf_uploads").where("id", "=", row.id).execute();
      await removeChunks(row);
      return reply.status(204).send();
    },
  );
}
