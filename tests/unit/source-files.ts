/**
 * The project's own TypeScript sources, for the checks that read them as syntax trees
 * (money-rounding.test.ts, money-display.test.ts).
 */
import { readdirSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");

/** Non-test TypeScript sources under `folder`, relative to the root, with forward slashes. */
export function sourcesUnder(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, withFileTypes: false })
    .map((f) => path.join(folder, String(f)).split(path.sep).join("/"))
    .filter((f) => /\.tsx?$/.test(f) && !/\.(test|spec)\.tsx?$/.test(f) && !f.endsWith(".d.ts"));
}
