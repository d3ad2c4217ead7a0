/**
 * A real S3-compatible server for tests: s3rver (an npm package, no binary) on loopback,
 * with its files in a temp folder. The S3 storage driver talks to it over HTTP exactly as it
 * would to S3 or MinIO.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import type { StorageConfig } from "../../server/config";
import { s3StorageClient } from "../../server/storage/s3";

/** s3rver's fixed credentials. */
export const S3_KEY = "S3RVER";

export async function startS3rver(): Promise<{ url: string; stop: () => Promise<void> }> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "atelier-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory });
  const address = (await server.run()) as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Storage settings for a fresh bucket on the test S3 server. */
export async function freshBucket(url: string): Promise<Extract<StorageConfig, { kind: "s3" }>> {
  const config = {
    kind: "s3" as const,
    endpoint: url,
    bucket: `atelier-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    region: "us-east-1",
    accessKeyId: S3_KEY,
    secretAccessKey: S3_KEY,
    forcePathStyle: true,
  };
  const client = s3StorageClient(config);
  await client.send(new CreateBucketCommand({ Bucket: config.bucket }));
  client.destroy();
  return config;
}

/** The same settings as environment variables (STORAGE=s3 …). */
export const s3Env = (c: Extract<StorageConfig, { kind: "s3" }>): Record<string, string> => ({
  STORAGE: "s3",
  S3_ENDPOINT: c.endpoint ?? "",
  S3_BUCKET: c.bucket,
  S3_REGION: c.region,
  S3_ACCESS_KEY_ID: c.accessKeyId,
  S3_SECRET_ACCESS_KEY: c.secretAccessKey,
  S3_FORCE_PATH_STYLE: "true",
});
