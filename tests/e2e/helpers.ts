/**
 * Shared e2e helpers: sign in through the page or through the API, read the mail outbox.
 * The server behind them is started by playwright.config.ts (fresh DATA_DIR per run).
 */
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import type { ListResponse, OutboxMail, SignInResponse } from "../../schemas/auth";
import { ADMIN_EMAIL, ADMIN_PASSWORD, E2E_ORIGIN } from "./env";

export { ADMIN_EMAIL, ADMIN_PASSWORD, E2E_ORIGIN };

/** Absolute URL of an API path on the e2e server (`api("/api/users")`). */
export const api = (pathname: string) => `${E2E_ORIGIN}${pathname}`;

/**
 * Signs in through the login screen and waits until the app has left it.
 *
 * @example
 * await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
 */
export async function signIn(page: Page, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<void> {
  await page.goto("login");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).not.toHaveURL(/\/login(\?|$)/);
}

/** Signs in through the API (no browser) and returns the tokens and the user. */
export async function apiSignIn(
  request: APIRequestContext,
  email = ADMIN_EMAIL,
  password = ADMIN_PASSWORD,
  deviceId = `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
): Promise<SignInResponse> {
  const response = await request.post(api("/api/auth/signin"), {
    data: { email, password, deviceInfo: { deviceId, deviceName: "Playwright e2e" } },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as SignInResponse;
}

/** The mail outbox (newest first), read as an admin through `GET /api/outbox`. */
export async function readOutbox(request: APIRequestContext, token: string): Promise<OutboxMail[]> {
  const response = await request.get(api("/api/outbox"), {
    params: { page: 1, pageSize: 100, sort: "-created_at" },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as ListResponse<OutboxMail>).data;
}

/**
 * Waits for a mail to `to` whose subject matches, polling the outbox (mail can go through the job queue).
 */
export async function waitForMail(
  request: APIRequestContext,
  token: string,
  to: string,
  subject: RegExp = /.*/,
): Promise<OutboxMail> {
  let found: OutboxMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await readOutbox(request, token)).find(
          (mail) => mail.to.toLowerCase().includes(to.toLowerCase()) && subject.test(mail.subject),
        );
        return found !== undefined;
      },
      { message: `mail to ${to} matching ${subject}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}
