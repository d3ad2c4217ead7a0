/**
 * The e2e stack itself: the server is up on a fresh data folder and serves the built SPA,
 * which starts in Chromium without an uncaught error and sends a signed-out visitor to sign in.
 * The specs run with the system's "reduce motion" asked for (playwright.config.ts), which the app
 * honours; the last test checks both ways.
 */
import { expect, test } from "@playwright/test";
import { api } from "./helpers";

test("the server answers its health check", async ({ request }) => {
  const response = await request.get(api("/api/health"));
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: "ok", database: "up" });
});

test("the admin app starts under /manage and asks a signed-out visitor to sign in", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const response = await page.goto("");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/manage\/login$/);
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  expect(errors).toEqual([]);
});

test("antd's motion follows the system's reduced-motion setting, also when it changes", async ({ page }) => {
  await page.goto("login");
  const signIn = page.getByRole("button", { name: "Sign in", exact: true });
  await expect(signIn).toBeVisible();
  const transition = () => signIn.evaluate((el) => getComputedStyle(el).transitionDuration);
  // Asked for less motion (the suite's setting): nothing moves.
  expect((await transition()).split(/,\s*/).every((d) => d === "0s")).toBe(true);
  await page.emulateMedia({ reducedMotion: "no-preference" });
  await expect.poll(async () => (await transition()).split(/,\s*/).some((d) => d !== "0s")).toBe(true);
});
