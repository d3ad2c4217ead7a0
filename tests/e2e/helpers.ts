/**
 * Shared e2e helpers: sign in through the API (the app opened signed in) or through the form,
 * read the mail outbox.
 * The server behind them is started by playwright.config.ts (fresh DATA_DIR per run).
 */
import { type APIRequestContext, type APIResponse, expect, type Locator, type Page } from "@playwright/test";
import {
  ACCESS_TOKEN_COOKIE,
  ACCESS_TOKEN_DURATION_KEY,
  ACCESS_TOKEN_EXPIRY_KEY,
  REFRESH_TOKEN_COOKIE,
  REFRESH_TOKEN_EXPIRY_KEY,
  TOKEN_COOKIE_DAYS,
} from "../../providers/token-store";
import type { ListResponse, OutboxMail, SignInResponse } from "../../schemas/auth";
import { ADMIN_EMAIL, ADMIN_PASSWORD, E2E_ORIGIN } from "./env";

export { ADMIN_EMAIL, ADMIN_PASSWORD, E2E_ORIGIN };

/** Absolute URL of an API path on the e2e server (`api("/api/users")`). */
export const api = (pathname: string) => `${E2E_ORIGIN}${pathname}`;

/**
 * Signs in through the API and opens the app signed in, as the sign-in screen leaves it: the
 * tokens in the SPA's cookies and their expiry times in its localStorage (the names of
 * providers/token-store.ts), then the app's home. Several seconds quicker than the form on a
 * busy machine (one app load instead of two, no typing), and every spec signs in: specs about
 * the sign-in form, the session or the auth flow use {@link signInWithForm} instead.
 *
 * @example
 * await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
 */
export async function signIn(page: Page, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<void> {
  await openSignedIn(page, "", email, password);
}

/**
 * Signs in through the API, as {@link signIn}, and opens the app at `target` (relative to
 * /manage/) rather than at its home: one load of the app instead of two when a spec starts on
 * a page of its own.
 *
 * @example
 * await openSignedIn(page, "crm/clients");
 */
export async function openSignedIn(
  page: Page,
  target: string,
  email = ADMIN_EMAIL,
  password = ADMIN_PASSWORD,
): Promise<void> {
  const answer = await apiSignIn(page.request, email, password);
  // As js-cookie writes them (createCookieJar): whole site, first-party, encoded.
  await page.context().addCookies(
    [
      [ACCESS_TOKEN_COOKIE, answer.accessToken],
      [REFRESH_TOKEN_COOKIE, answer.refreshToken],
    ].map(([name, value]) => ({
      name,
      value: encodeURIComponent(value),
      domain: new URL(E2E_ORIGIN).hostname,
      path: "/",
      sameSite: "Strict" as const,
      expires: Math.floor(Date.now() / 1000) + TOKEN_COOKIE_DAYS * 86_400,
    })),
  );
  // localStorage is per origin and only reachable from a page: a small answer of the same
  // origin (not the app, which would read the session before it is complete) is enough.
  await page.goto(api("/api/health"));
  await page.evaluate(
    ({ keys, pair }) => {
      localStorage.setItem(keys.access, String(pair.accessTokenExpiry));
      localStorage.setItem(keys.refresh, String(pair.refreshTokenExpiry));
      localStorage.setItem(keys.duration, String(pair.accessTokenDuration));
    },
    {
      keys: {
        access: ACCESS_TOKEN_EXPIRY_KEY,
        refresh: REFRESH_TOKEN_EXPIRY_KEY,
        duration: ACCESS_TOKEN_DURATION_KEY,
      },
      pair: answer,
    },
  );
  await page.goto(target);
  await expect(page).not.toHaveURL(/\/login(\?|$)/);
}

/**
 * Signs in through the login screen and waits until the app has left it: for specs that test
 * the form, the session or the auth flow (the others use the quicker {@link signIn}).
 *
 * @example
 * await signInWithForm(page, ADMIN_EMAIL, ADMIN_PASSWORD);
 */
export async function signInWithForm(
  page: Page,
  email = ADMIN_EMAIL,
  password = ADMIN_PASSWORD,
): Promise<void> {
  await page.goto("login");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).not.toHaveURL(/\/login(\?|$)/);
}

/**
 * Navigates inside the single-page app, as a link does (no page load): how a user moves
 * around once the app is open, and the only way to move at all while offline. `to` is a path
 * from the origin (`/manage/users`); the screen may add a query string of its own (a list
 * keeps its page and sort in the address).
 */
export async function navigateInApp(page: Page, to: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState(null, "", target);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, to);
  await expect(page).toHaveURL(new RegExp(`${to.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\?.*)?$`));
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
export async function readOutbox(admin: ApiSession): Promise<OutboxMail[]> {
  const page = await admin.expect<ListResponse<OutboxMail>>(
    "GET",
    "/api/outbox?page=1&pageSize=100&sort=-created_at",
    200,
  );
  return page.data;
}

/**
 * Waits for a mail to `to` whose subject matches, polling the outbox (mail can go through the job
 * queue). Reads through an {@link ApiSession}, whose token is refreshed when the 5 s one runs out.
 */
export async function waitForMail(
  admin: ApiSession,
  to: string,
  subject: RegExp = /.*/,
): Promise<OutboxMail> {
  let found: OutboxMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await readOutbox(admin)).find(
          (mail) => mail.to.toLowerCase().includes(to.toLowerCase()) && subject.test(mail.subject),
        );
        return found !== undefined;
      },
      { message: `mail to ${to} matching ${subject}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

/**
 * Signs out through the user menu and waits for the sign-in screen. The menu item is
 * clicked again if the first click landed while the dropdown was still opening.
 */
export async function signOut(page: Page): Promise<void> {
  await expect(async () => {
    const item = page.getByRole("menuitem", { name: "Sign out" });
    if (!(await item.isVisible())) await page.getByTestId("user-menu").click();
    await item.click({ timeout: 2000 });
    await expect(page).toHaveURL(/\/manage\/login$/, { timeout: 3000 });
  }).toPass({ timeout: 15_000 });
}

/** A JSON call through an {@link ApiSession}: its status and parsed body. */
export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
}

/**
 * An API session of one user for setting up and checking data beside the page. The e2e
 * server's access tokens live 5 seconds, so a call answered 417 rotates the refresh token
 * (not rate limited, unlike sign-in) and is sent again.
 */
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A request body: JSON, or a multipart form (an upload). */
export type ApiBody = { data: unknown } | { multipart: Record<string, MultipartValue> };
type MultipartValue = string | { name: string; mimeType: string; buffer: Buffer };

export interface ApiSession {
  readonly user: SignInResponse["user"];
  /** The raw response of a call with any body, for uploads and for reading headers. */
  send(method: Method, pathname: string, body?: ApiBody): Promise<APIResponse>;
  call<T = unknown>(method: Method, pathname: string, data?: unknown): Promise<ApiAnswer<T>>;
  /** A call that must answer `status`; returns the body. */
  expect<T = unknown>(method: Method, pathname: string, status: number, data?: unknown): Promise<T>;
}

/**
 * Signs in through the API once and returns a session that keeps its token fresh.
 *
 * @example
 * const admin = await apiSession(request);
 * const category = await admin.expect<{ id: string }>("POST", "/api/categories", 201, { name: "Lamps" });
 */
export async function apiSession(
  request: APIRequestContext,
  email = ADMIN_EMAIL,
  password = ADMIN_PASSWORD,
): Promise<ApiSession> {
  const signedIn = await apiSignIn(request, email, password);
  let { accessToken, refreshToken } = signedIn;

  const refresh = async () => {
    const response = await request.post(api("/api/auth/refreshtokenapp"), { data: { refreshToken } });
    expect(response.status(), await response.text()).toBe(200);
    ({ accessToken, refreshToken } = (await response.json()) as SignInResponse);
  };

  const send = async (method: Method, pathname: string, body?: ApiBody): Promise<APIResponse> => {
    for (let attempt = 0; ; attempt++) {
      const response = await request.fetch(api(pathname), {
        method,
        headers: { Authorization: `Bearer ${accessToken}` },
        ...body,
      });
      if (response.status() !== 417 || attempt > 0) return response;
      await refresh();
    }
  };

  const call = async <T>(method: Method, pathname: string, data?: unknown): Promise<ApiAnswer<T>> => {
    const response = await send(method, pathname, data === undefined ? undefined : { data });
    const text = await response.text();
    return { status: response.status(), body: (text ? JSON.parse(text) : undefined) as T };
  };

  return {
    user: signedIn.user,
    send,
    call,
    async expect<T>(method: Method, pathname: string, status: number, data?: unknown): Promise<T> {
      const answer = await call<T>(method, pathname, data);
      expect(answer.status, `${method} ${pathname}: ${JSON.stringify(answer.body)}`).toBe(status);
      return answer.body;
    },
  };
}

/**
 * Waits until a dialog has finished opening. antd zooms a dialog in from a small scale; on a busy
 * machine a click aimed at its small, still-growing box can land on the mask behind it, which
 * shuts the dialog (a close that was being confirmed is then cancelled).
 *
 * @example
 * await dialogOpened(page.getByRole("dialog", { name: "Mark “Deal” as won" }));
 */
export async function dialogOpened(dialog: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveCSS("transform", "none");
}

/**
 * Puts a merge field in with a field menu ("Insert field"): opens `menu`, clicks the `item`,
 * and tries again until `target` holds `expected` (its value, or with `text`, its text). A
 * click on the menu while it is still opening can be lost on a busy machine; once the field
 * is in, it is never put in twice.
 *
 * @example
 * await insertMergeField(page, dialog.getByRole("button", { name: "Insert field" }),
 *   /Company \{\{client\.company\}\}/, subject, "Welcome aboard, {{client.company}}");
 */
export async function insertMergeField(
  page: Page,
  menu: Locator,
  item: RegExp | string,
  target: Locator,
  expected: string,
  { text = false }: { text?: boolean } = {},
): Promise<void> {
  const isIn = async () =>
    text ? ((await target.textContent()) ?? "").includes(expected) : (await target.inputValue()) === expected;
  await expect(async () => {
    if (!(await isIn())) {
      await menu.click();
      await page.getByRole("menuitem", { name: item }).click({ timeout: 5_000 });
    }
    await expect.poll(isIn, { timeout: 2_000 }).toBe(true);
  }).toPass({ timeout: 30_000 });
}

/**
 * The select labelled `label`. By label, not by accessible name: the name of a required
 * field's input starts with the "*" antd draws before its label.
 */
export const combobox = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).and(page.getByRole("combobox"));

/**
 * Makes a non-admin user through the API with these modules and a password of their own, and
 * returns how they sign in.
 */
export async function createUser(
  admin: ApiSession,
  user: { first_name: string; last_name: string; email: string; password: string; modules: number[] },
): Promise<{ email: string; password: string }> {
  await admin.expect("POST", "/api/users", 201, { ...user, role: 3 });
  return { email: user.email, password: user.password };
}

/**
 * Picks `option` in the select labelled `label`, typing it (or `search`) first when the select
 * searches.
 */
export async function choose(
  page: Page,
  label: string,
  option: string,
  { type = false, search }: { type?: boolean; search?: string } = {},
) {
  const box = combobox(page, label);
  const select = box.locator(
    "xpath=ancestor::div[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]",
  );
  const chosen = select.locator(`.ant-select-selection-item[title="${option}"]`);
  const open = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)");
  // A click on an option can be lost while the list is still opening on a busy machine, so
  // this confirms the select shows the choice and tries again if it does not.
  // Open or not is read from the box (`aria-expanded`), not from the list, which is not yet
  // visible while it animates open: a click then would shut it again.
  try {
    await expect(async () => {
      if ((await chosen.count()) > 0) return;
      if ((await box.getAttribute("aria-expanded")) !== "true") await box.click({ force: true });
      if (type || search) await box.fill(search ?? option);
      await open.locator(`.ant-select-item-option[title="${option}"]`).click({ timeout: 5000 });
      await expect(chosen.first()).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 30_000 });
  } catch (error) {
    // What the list offered instead, so a failure on CI says why.
    const offered = await open.allInnerTexts().catch(() => []);
    throw new Error(
      `"${option}" could not be chosen in "${label}"; the open list showed ${JSON.stringify(offered)}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * On the user form: picks the role, then ticks module boxes. The role list closes with an
 * animation over the modules below it, and a click that lands while it fades can be lost, so
 * this waits for the list to be gone and confirms that each box took.
 */
export async function chooseRoleAndModules(page: Page, role: string, modules: readonly string[]) {
  await page.getByLabel("Role", { exact: true }).click({ force: true });
  await page.locator(`.ant-select-item-option[title="${role}"]`).click();
  await expect(page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)")).toHaveCount(0);
  for (const name of modules) {
    const box = page.getByRole("checkbox", { name });
    await expect(async () => {
      await box.check();
      await expect(box).toBeChecked({ timeout: 1000 });
    }).toPass();
  }
}
