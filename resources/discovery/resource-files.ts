/**
 * The resource definition files, `resources/*.ts`, read from disk. The SPA build swaps this
 * module for `resource-files.browser.ts` (vite.config.ts), which globs the same files.
 */
import path from "node:path";
import { importFolder, PROJECT_ROOT } from "./import-folder";

export const RESOURCE_FILES = await importFolder(
  path.join(PROJECT_ROOT, "resources"),
  "resource",
  PROJECT_ROOT,
);
