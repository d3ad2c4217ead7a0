/**
 * The session outlives its access tokens (the e2e server issues 5-second tokens): the
 * scheduled refresh keeps it alive, and a request that meets 417 refreshes and retries.
 */
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

test("the scheduled refresh keeps the session alive across token expiries", async ({ page }) => {
  await signIn(page);
  await page.waitForTimeout(12_000); // more than two access-token lifetimes
  await page.getByRole("menu").first().getByText("Users", { exact: true }).click();
  // The list answered (what page the admin's own row is on depends on the users other specs made).
  await expect(page.getByText(/^\d+ users?$/)).toBeVisible();
  await expect(page).not.toHaveURL(/login/);
});

test("a request answered 417 refreshes once and is retried with the new token", async ({ page, context }) => {
  await signIn(page);
  // Make the app believe its token lives long, so no refresh is scheduled: the next call meets a 417.
  await context.addInitScript(() =>
    localStorage.setItem("accessTokenExpiry", String(Date.now() + 3_600_000)),
  );
  await page.reload();
  await expect(page.getByTestId("user-menu")).toBeVisible();
  await page.waitForTimeout(6_000);

  const statuses: Array<[string, number]> = [];
  page.on("response", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/api/")) statuses.push([url.pathname, r.status()]);
  });
  await page.getByRole("menu").first().getByText("Users", { exact: true }).click();
  // The list answered (what page the admin's own row is on depends on the users other specs made).
  await expect(page.getByText(/^\d+ users?$/)).toBeVisible();
  expect(statuses.some(([, s]) => s === 417)).toBe(true);
  expect(statuses.filter(([p]) => p === "/api/auth/refreshtokenapp")).toEqual([
    ["/api/auth/refreshtokenapp", 200],
  ]);
  await expect(page).not.toHaveURL(/login/);
});
