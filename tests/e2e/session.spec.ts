/**
 * The session outlives its access tokens (the e2e server issues 5-second tokens): the
 * scheduled refresh keeps it alive, and a request that meets 417 refreshes and retries.
 */
import { type BrowserContext, expect, test } from "@playwright/test";
import { signInWithForm } from "./helpers";

/** The expiry (epoch ms) of the access token the page holds now, read from its cookie. */
async function accessTokenExpiry(context: BrowserContext): Promise<number> {
  const cookie = (await context.cookies()).find((c) => c.name === "accessToken");
  expect(cookie, "the access token cookie").toBeTruthy();
  const payload = JSON.parse(
    Buffer.from((cookie as { value: string }).value.split(".")[1], "base64url").toString(),
  );
  return payload.exp * 1000;
}

test("the scheduled refresh keeps the session alive across token expiries", async ({ page }) => {
  let refreshes = 0;
  page.on("response", (r) => {
    if (new URL(r.url()).pathname === "/api/auth/refreshtokenapp" && r.status() === 200) refreshes++;
  });
  await signInWithForm(page);
  // Two access-token lifetimes pass, each ended by the scheduled refresh.
  await expect.poll(() => refreshes, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  await page.getByRole("menu").first().getByText("Users", { exact: true }).click();
  // The list answered (what page the admin's own row is on depends on the users other specs made).
  await expect(page.getByText(/^\d+ users?$/)).toBeVisible();
  await expect(page).not.toHaveURL(/login/);
});

test("a request answered 417 refreshes once and is retried with the new token", async ({ page, context }) => {
  await signInWithForm(page);
  // Make the app believe its token lives long, so no refresh is scheduled: the next call meets a 417.
  await context.addInitScript(() =>
    localStorage.setItem("accessTokenExpiry", String(Date.now() + 3_600_000)),
  );
  // Every API answer from the reload on: a request the app makes by itself once the token has
  // expired may be the one that meets the 417, before the click below.
  const statuses: Array<[string, number]> = [];
  page.on("response", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/api/")) statuses.push([url.pathname, r.status()]);
  });
  await page.reload();
  await expect(page.getByTestId("user-menu")).toBeVisible();
  const expiry = await accessTokenExpiry(context);
  await expect.poll(() => Date.now(), { timeout: 30_000 }).toBeGreaterThan(expiry + 500);

  await page.getByRole("menu").first().getByText("Users", { exact: true }).click();
  // The list answered (what page the admin's own row is on depends on the users other specs made).
  await expect(page.getByText(/^\d+ users?$/)).toBeVisible();
  // From the first 417 on: one refresh, answered 200, then the refused call again, answered.
  const REFRESH = "/api/auth/refreshtokenapp";
  const first417 = statuses.findIndex(([, status]) => status === 417);
  expect(first417, `a 417 among ${JSON.stringify(statuses)}`).toBeGreaterThanOrEqual(0);
  const [refused] = statuses[first417];
  const after = statuses.slice(first417);
  const retried = after.findIndex(([path, status]) => path === refused && status === 200);
  expect(retried, `${refused} answered after the refresh`).toBeGreaterThan(0);
  expect(after.slice(0, retried).filter(([path]) => path === REFRESH)).toEqual([[REFRESH, 200]]);
  await expect(page).not.toHaveURL(/login/);
});
