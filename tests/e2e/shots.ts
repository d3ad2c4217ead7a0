/**
 * Screenshots the browser tests leave for a person to look at (never compared): under
 * `E2E_SHOTS_DIR` (default `.tmp/e2e-shots`), one folder a spec.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";

/** The review sizes of the guide: 1440×900 and 1280×800. */
export const REVIEW_SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
] as const;

/** The folder of `spec`'s screenshots, made if missing. */
export function shotsDir(spec: string): string {
  const dir = path.join(process.env.E2E_SHOTS_DIR ?? path.join(process.cwd(), ".tmp", "e2e-shots"), spec);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The page as it is now, at its current size: `<spec>/<name>.png`. */
export async function shootAsIs(page: Page, spec: string, name: string): Promise<void> {
  await page.screenshot({ path: path.join(shotsDir(spec), `${name}.png`) });
}

/** The page at both review sizes (`<name>-1440.png`, `<name>-1280.png`), back at the first after. */
export async function shoot(page: Page, spec: string, name: string): Promise<void> {
  for (const size of REVIEW_SIZES) {
    await page.setViewportSize(size);
    await shootAsIs(page, spec, `${name}-${size.width}`);
  }
  await page.setViewportSize(REVIEW_SIZES[0]);
}
