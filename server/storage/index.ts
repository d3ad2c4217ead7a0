/** Builds the configured storage driver (STORAGE=local|s3, README.md lists the settings). */
import path from "node:path";
import type { Config } from "../config";
import { localStorage } from "./local";
import type { StorageDriver } from "./storage";

export type { ByteRange, StorageDriver, StoredObject } from "./storage";

export async function createStorage(config: Pick<Config, "storage" | "dataDir">): Promise<StorageDriver> {
  if (config.storage.kind === "local") return localStorage(path.join(config.dataDir, "storage"));
  const { s3Storage } = await import("./s3");
  return s3Storage(config.storage);
}
