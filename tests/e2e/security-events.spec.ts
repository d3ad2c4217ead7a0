/**
 * The security log screen: an admin opens it from the menu, finds their own sign-in (with
 * the browser's IP and user agent), and narrows the list to one event type.
 */
import { mkdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { api, choose, signInWithForm } from "./helpers";

test("an admin sees their own sign-in in the security log and filters it by type", async ({
  page,
  request,
}) => {
  // A failed sign-in to filter for, from outside the browser.
  const failed = await request.post(api("/api/auth/signin"), {
    data: {
      email: "intruder@example.com",
      password: "Not-the-passw0rd",
      deviceInfo: { deviceId: "e2e-intruder", deviceName: "Linux Chrome" },
    },
  });
  expect(failed.status()).toBe(401);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInWithForm(page);
  const userAgent = await page.evaluate(() => navigator.userAgent);
  await page.getByRole("menu").first().getByText("Security log", { exact: true }).click();
  await expect(page).toHaveURL(/\/manage\/users\/security-log/);
  await expect(page.getByRole("heading", { name: "Security log" })).toBeVisible();

  const rows = page.locator(".ant-table-tbody tr.ant-table-row");
  const mySignIn = rows.filter({ hasText: "Signed in" }).filter({ hasText: "admin@example.com" }).first();
  await expect(mySignIn).toBeVisible();
  await expect(mySignIn).toContainText("127.0.0.1");
  // The browser column names the browser; the full user agent is in its tooltip.
  await mySignIn.getByText("Chrome on Linux", { exact: true }).hover();
  await expect(page.getByRole("tooltip")).toContainText(userAgent.slice(0, 20));
  // Newest first: the sign-in that opened this page tops the list.
  await expect(rows.first()).toContainText("Signed in");
  mkdirSync(".tmp/screenshots", { recursive: true });
  await page.screenshot({ path: ".tmp/screenshots/security-log.png" });

  await choose(page, "Filter by event type", "Sign-in failed");
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(/filters/);
  await expect(rows.filter({ hasText: "intruder@example.com" }).first()).toBeVisible();
  await expect(rows.filter({ hasText: "Signed in" })).toHaveCount(0);
  const count = await rows.count();
  for (let i = 0; i < count; i++) await expect(rows.nth(i)).toContainText("Sign-in failed");
  await expect(rows.filter({ hasText: "intruder@example.com" }).first()).toContainText(
    "no account with this email",
  );
  await page.screenshot({ path: ".tmp/screenshots/security-log-filtered.png" });

  // Nothing matches: the empty state says so.
  await page.getByRole("searchbox", { name: "Filter by IP address" }).fill("203.0.113.250");
  await page.getByRole("searchbox", { name: "Filter by IP address" }).press("Enter");
  await expect(page.getByText("No security events match these filters")).toBeVisible();
});
