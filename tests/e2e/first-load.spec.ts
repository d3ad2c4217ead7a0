/**
 * First load (issue 13): /manage/login transfers at most 200 KB of compressed JavaScript and a
 * list screen at most 400 KB, measured in Chromium with an empty cache against the real server
 * (bench/first-load.ts, shared with bench/bundle-size.mjs). Bytes are deterministic for a build,
 * so they are asserted; the time to the first row is only printed (it depends on the machine).
 * Every script arrives compressed, and hashed assets are cached for a year.
 */
import { expect, test } from "@playwright/test";
import {
  FIRST_LOAD_BUDGETS,
  kb,
  LIST_SCREEN,
  listReady,
  loginReady,
  measureScreen,
  type ScreenLoad,
  seedProduct,
  signedInState,
} from "../../bench/first-load";
import { ADMIN_EMAIL, ADMIN_PASSWORD, E2E_ORIGIN } from "./env";
import { shootAsIs } from "./shots";

/** Scripts are sent compressed, and the hashed ones (under assets/) with a year of caching. */
function expectCompressedAndCached(load: ScreenLoad) {
  expect(load.scripts.length).toBeGreaterThan(0);
  for (const script of load.scripts) {
    expect(script.encoding, script.url).toMatch(/^(br|gzip)$/);
    if (/\/manage\/assets\//.test(script.url)) {
      expect(script.cacheControl, script.url).toContain("max-age=31536000");
      expect(script.cacheControl, script.url).toContain("immutable");
    }
  }
}

test("the login screen loads at most 200 KB of compressed JavaScript", async ({ browser }, testInfo) => {
  const context = await browser.newContext();
  const load = await measureScreen(context, `${E2E_ORIGIN}/manage/login`, loginReady);
  testInfo.annotations.push({
    type: "login JS",
    description: `${kb(load.bytes)} in ${load.scripts.length} files`,
  });
  console.log(`login: ${kb(load.bytes)} of JavaScript in ${load.scripts.length} files`);
  expectCompressedAndCached(load);
  expect(load.bytes).toBeLessThanOrEqual(FIRST_LOAD_BUDGETS.loginBytes);

  for (const [width, height] of [
    [1440, 900],
    [1280, 800],
  ]) {
    const page = await context.newPage();
    await page.setViewportSize({ width, height });
    await page.goto(`${E2E_ORIGIN}/manage/login`);
    await loginReady(page);
    // The drawn card (not antd's Card) still frames the form, and the icons are there.
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await expect(page.locator(".anticon-mail")).toBeVisible();
    await shootAsIs(page, "first-load", `login-${width}x${height}`);
    await page.close();
  }
  await context.close();
});

test("a list screen loads at most 400 KB of compressed JavaScript", async ({ browser }, testInfo) => {
  await seedProduct(E2E_ORIGIN, ADMIN_EMAIL, ADMIN_PASSWORD);
  const storageState = await signedInState(browser, E2E_ORIGIN, ADMIN_EMAIL, ADMIN_PASSWORD);
  const context = await browser.newContext({ storageState });
  const load = await measureScreen(context, `${E2E_ORIGIN}${LIST_SCREEN}`, listReady);
  const summary = `${kb(load.bytes)} in ${load.scripts.length} files; first row after ${load.shownMs} ms`;
  testInfo.annotations.push({ type: "list JS", description: summary });
  console.log(`list: ${summary} (timed by npm run bench:bundle, not asserted)`);
  expectCompressedAndCached(load);
  expect(load.bytes).toBeLessThanOrEqual(FIRST_LOAD_BUDGETS.listBytes);

  for (const [width, height] of [
    [1440, 900],
    [1280, 800],
  ]) {
    const page = await context.newPage();
    await page.setViewportSize({ width, height });
    await page.goto(`${E2E_ORIGIN}${LIST_SCREEN}`);
    await listReady(page);
    await expect(page.getByRole("menu").first()).toBeVisible();
    await shootAsIs(page, "first-load", `list-${width}x${height}`);
    await page.close();
  }
  await context.close();
});
