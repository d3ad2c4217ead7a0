/**
 * The module definition files, `resources/*.module.ts`, bundled by Vite. Stands in for
 * `module-files.ts` in the SPA (vite.config.ts); a unit test checks both finders agree.
 */
import type { DefinitionFiles } from "./collect";

const files: Record<string, Record<string, unknown>> = import.meta.glob(["../*.module.ts", "!../*.test.ts"], {
  eager: true,
});

export const MODULE_FILES: DefinitionFiles = Object.fromEntries(
  Object.entries(files).map(([file, exports]) => [file.replace(/^\.\.\//, "resources/"), exports]),
);
