/** S3-compatible storage driver (STORAGE=s3). */
import type { StorageConfig } from "../config";
import type { StorageDriver } from "./storage";

export function s3Storage(_config: Extract<StorageConfig, { kind: "s3" }>): StorageDriver {
  throw new Error("S3 storage is not built yet");
}
