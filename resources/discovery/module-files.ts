/**
 * The module definition files, `resources/*.module.ts`, read from disk. The SPA build swaps
 * this module for `module-files.browser.ts` (vite.config.ts), which globs the same files.
 * Kept apart from the resource finder: resources import `MODULE_IDS`, so the modules must be
 * complete before any resource file runs.
 */
import path from "node:path";
import { importFolder, PROJECT_ROOT } from "./import-folder";

export const MODULE_FILES = await importFolder(path.join(PROJECT_ROOT, "resources"), "module", PROJECT_ROOT);
