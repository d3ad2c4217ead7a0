/**
 * S3-compatible storage (STORAGE=s3): AWS S3, MinIO, Ceph, R2… Uploads stream through
 * lib-storage's multipart `Upload` (a few 5 MiB parts in flight, never the whole file),
 * downloads stream the response body.
 */

import type { Readable } from "node:stream";
import { PassThrough, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { StorageConfig } from "../config";
import { assertKey, type StorageDriver, type StoredObject } from "./storage";

type S3Config = Extract<StorageConfig, { kind: "s3" }>;

const notFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 || error.name === "NotFound" || error.name === "NoSuchKey");

const quoted = (etag: string | undefined) => (etag ? (etag.startsWith('"') ? etag : `"${etag}"`) : '""');

/** Total size from `Content-Range: bytes 0-9/100`. */
const totalOf = (contentRange: string | undefined, fallback: number) => {
  const total = contentRange ? Number(contentRange.split("/")[1]) : Number.NaN;
  return Number.isFinite(total) ? total : fallback;
};

export function s3StorageClient(config: S3Config): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
  });
}

export function s3Storage(config: S3Config, client: S3Client = s3StorageClient(config)): StorageDriver {
  const Bucket = config.bucket;

  const head = async (key: string): Promise<StoredObject | null> => {
    try {
      const out = await client.send(new HeadObjectCommand({ Bucket, Key: assertKey(key) }));
      return {
        key,
        size: out.ContentLength ?? 0,
        etag: quoted(out.ETag),
        contentType: out.ContentType ?? "application/octet-stream",
        lastModified: out.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  };

  return {
    kind: "s3",
    async put(key, body: Readable, contentType) {
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      const pass = new PassThrough();
      const upload = new Upload({
        client,
        params: { Bucket, Key: assertKey(key), Body: pass, ContentType: contentType },
        queueSize: 2,
        partSize: 5 * 1024 * 1024,
        leavePartsOnError: false,
      });
      const piping = pipeline(body, counter, pass);
      try {
        const [, out] = await Promise.all([piping, upload.done()]);
        return { key, size, etag: quoted(out.ETag), contentType, lastModified: new Date() };
      } catch (error) {
        pass.destroy();
        await upload.abort().catch(() => {});
        throw error;
      }
    },
    head,
    async get(key, range) {
      try {
        const out = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: assertKey(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        const length = out.ContentLength ?? 0;
        const object: StoredObject = {
          key,
          size: range ? totalOf(out.ContentRange, length) : length,
          etag: quoted(out.ETag),
          contentType: out.ContentType ?? "application/octet-stream",
          lastModified: out.LastModified ?? new Date(0),
        };
        return { object, body: out.Body as Readable };
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    async delete(keys) {
      for (let i = 0; i < keys.length; i += 1000) {
        const batch = keys.slice(i, i + 1000).map((k) => ({ Key: assertKey(k) }));
        if (batch.length) {
          await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch, Quiet: true } }));
        }
      }
    },
    async close() {
      client.destroy();
    },
  };
}
