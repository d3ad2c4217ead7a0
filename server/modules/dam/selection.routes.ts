/**
 * Routes on a selection of folders and assets: move, delete, and download as a streamed zip.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import yazl from "yazl";
import { principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { badRequest } from "../../http/errors";
import { extensionOf, KINDS } from "../../storage/sniff";
import type { DamService } from "./dam.service";
import { config, DAM_BASE, nullableUuid, security, selection, tags } from "./route-schemas";

export function registerSelectionRoutes(app: FastifyInstance, ctx: AppContext, dam: DamService) {
  app.post<{ Body: { folderIds: string[]; assetIds: string[]; targetFolderId: string | null } }>(
    `${DAM_BASE}/move`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "Move folders and assets into a folder (null: the top level)",
        body: {
          type: "object",
          additionalProperties: false,
          required: ["targetFolderId"],
          properties: { ...selection, targetFolderId: nullableUuid },
        },
      },
    },
    async (request) => ({ moved: await dam.selection.move(request.body, principalOf(request).userId) }),
  );

  app.post<{ Body: { folderIds: string[]; assetIds: string[] } }>(
    `${DAM_BASE}/delete`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "Delete folders (with their contents) and assets",
        body: { type: "object", additionalProperties: false, properties: selection },
      },
    },
    async (request) => ({ deleted: await dam.selection.remove(request.body, principalOf(request).userId) }),
  );

  app.post<{ Body: { folderIds: string[]; assetIds: string[] } }>(
    `${DAM_BASE}/download`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "A zip of folders (with their sub-folders) and assets, streamed",
        body: { type: "object", additionalProperties: false, properties: selection },
      },
    },
    async (request, reply) => {
      const entries = await dam.selection.zipEntries(request.body);
      if (!entries.length) {
        throw badRequest("There is nothing to download in this selection", [
          { field: "assetIds", message: "select at least one file" },
        ]);
      }
      return sendZip(ctx, reply, entries);
    },
  );
}

/** Streams a zip; each file is read from storage only when the zip reaches it. */
function sendZip(
  ctx: AppContext,
  reply: FastifyReply,
  entries: { storage_key: string; name: string; mime: string; path: string }[],
) {
  const zip = new yazl.ZipFile();
  const used = new Set<string>();
  for (const entry of entries) {
    const path = uniquePath(used, entry.path, withExtension(entry.name, entry.mime));
    zip.addReadStreamLazy(path, { compress: !/^(image|video|audio)\/|pdf/.test(entry.mime) }, (cb) => {
      ctx.storage.get(entry.storage_key).then(
        (got) =>
          got ? cb(null, got.body) : cb(new Error(`missing file ${entry.storage_key}`), null as never),
        (error: Error) => cb(error, null as never),
      );
    });
  }
  zip.end();
  const stamp = new Date().toISOString().slice(0, 10);
  return reply
    .header("Content-Type", "application/zip")
    .header("Content-Disposition", `attachment; filename="assets-${stamp}.zip"`)
    .send(zip.outputStream);
}

/** A name with its type's extension (a renamed asset may have lost it). */
function withExtension(name: string, mime: string): string {
  const kind = Object.values(KINDS).find((k) => k.mime === mime);
  const safe = name.replace(/[/\\]/g, "_");
  if (!kind || kind.extensions.includes(extensionOf(safe))) return safe;
  return `${safe}.${kind.ext}`;
}

/** `folder/name.png`, then `folder/name (2).png` for a second file of that name. */
function uniquePath(used: Set<string>, folder: string, name: string): string {
  const dot = name.lastIndexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : "";
  for (let n = 1; ; n++) {
    const candidate = `${folder ? `${folder}/` : ""}${n === 1 ? name : `${stem} (${n})${ext}`}`;
    if (!used.has(candidate.toLowerCase())) {
      used.add(candidate.toLowerCase());
      return candidate;
    }
  }
}
