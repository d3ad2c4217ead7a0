/**
 * The resource definition files, `resources/*.ts`, bundled by Vite. Stands in for
 * `resource-files.ts` in the SPA (vite.config.ts). The patterns are `definitionKindOf`'s
 * "resource" files (a glob takes literals only); a unit test checks both finders agree.
 */
import type { DefinitionFiles } from "./collect";

const files: Record<string, Record<string, unknown>> = import.meta.glob(
  ["../*.ts", "!../index.ts", "!../*.module.ts", "!../*.test.ts", "!../*.d.ts"],
  { eager: true },
);

export const RESOURCE_FILES: DefinitionFiles = Object.fromEntries(
  Object.entries(files).map(([file, exports]) => [file.replace(/^\.\.\//, "resources/"), exports]),
);
