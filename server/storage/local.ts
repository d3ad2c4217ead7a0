/**
 * Local folder storage (the default): objects are files under `<DATA_DIR>/storage`, written
 * to a temporary name and renamed into place, so a reader never sees half a file.
 * Content type and ETag sit next to each object in a small `.meta.json` file.
 */
import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { assertKey, type ByteRange, type StorageDriver, type StoredObject } from "./storage";

interface Meta {
  contentType: string;
  etag: string;
}

export function localStorage(root: string): StorageDriver {
  const fileOf = (key: string) => path.join(root, ...assertKey(key).split("/"));
  const metaOf = (file: string) => `${file}.meta.json`;

  async function head(key: string): Promise<StoredObject | null> {
    const file = fileOf(key);
    try {
      const [info, metaText] = await Promise.all([stat(file), readFile(metaOf(file), "utf8")]);
      const meta = JSON.parse(metaText) as Meta;
      return {
        key,
        size: info.size,
        etag: meta.etag,
        contentType: meta.contentType,
        lastModified: info.mtime,
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  return {
    kind: "local",
    async put(key, body, contentType) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const temp = `${file}.${randomUUID()}.tmp`;
      const hash = createHash("sha256");
      let size = 0;
      const tap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      try {
        await pipeline(body, tap, createWriteStream(temp));
        const etag = `"${hash.digest("hex").slice(0, 32)}"`;
        await writeFile(metaOf(file), JSON.stringify({ contentType, etag } satisfies Meta));
        await rename(temp, file);
        const info = await stat(file);
        return { key, size, etag, contentType, lastModified: info.mtime };
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    head,
    async get(key, range?: ByteRange) {
      const object = await head(key);
      if (!object) return null;
      const body: Readable = createReadStream(
        fileOf(key),
        range ? { start: range.start, end: range.end } : undefined,
      );
      return { object, body };
    },
    async delete(keys) {
      await Promise.all(
        keys.map(async (key) => {
          const file = fileOf(key);
          await rm(file, { force: true });
          await rm(metaOf(file), { force: true });
        }),
      );
    },
    async close() {},
  };
}
