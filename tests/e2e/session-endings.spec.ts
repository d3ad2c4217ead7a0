/**
 * Signed out by the system, the user learns why on the sign-in screen (issue 13): this
 * device signed out from another session (live over the socket, and by the next request's
 * 406 when the socket is out of reach), and a refresh the server refused ('Unable to refresh
 * token', spec §8). A sign-out the user asked for says nothing, clears local storage and
 * reaches the server even when the page leaves at once (keepalive).
 */
import {
  type APIRequestContext,
  type BrowserContext,
  expect as baseExpect,
  type Page,
  test,
} from "@playwright/test";
import { type ApiSession, api, apiSession, signInWithForm, waitForMail } from "./helpers";
import { shoot as shootBoth } from "./shots";

/** Two signed-in browsers and live events: generous, so a loaded machine is slower, not red. */
const expect = baseExpect.configure({ timeout: 30_000 });

test.describe.configure({ timeout: 180_000 });

const PASSWORD = "Ending-passw0rd";

/** A user with the Products module, created through the API. */
async function createUser(admin: ApiSession, name: string) {
  const email = `${name}-${Date.now()}@example.com`;
  const user = await admin.expect<{ id: string }>("POST", "/api/users", 201, {
    first_name: "Sam",
    last_name: "Session",
    email,
    password: PASSWORD,
    role: 3,
    modules: [2],
  });
  return { id: user.id, email };
}

/** The browser's device as the server lists it (the API sessions are "Playwright e2e"). */
async function browserDeviceId(session: ApiSession): Promise<string> {
  const devices = await session.expect<{
    data: Array<{ deviceId: string; deviceName: string; signedIn: boolean }>;
  }>("GET", "/api/users/me/devices", 200);
  const device = devices.data.find((d) => d.deviceName !== "Playwright e2e" && d.signedIn);
  expect(device, JSON.stringify(devices.data)).toBeDefined();
  return device!.deviceId;
}

const reason = (page: Page) => page.getByTestId("signed-out-reason");

/** The sign-in screen with its reason, at both review sizes. */
const shoot = (page: Page, name: string) => shootBoth(page, "session-endings", name);

const cookie = async (context: BrowserContext, name: string) =>
  (await context.cookies()).find((c) => c.name === name)?.value;

/**
 * A new user signs in in this browser; then the same user, on another device (the API), signs
 * this browser out from My devices.
 */
async function signedOutElsewhere(page: Page, request: APIRequestContext, name: string): Promise<void> {
  const admin = await apiSession(request);
  const user = await createUser(admin, name);
  await signInWithForm(page, user.email, PASSWORD);
  await expect(page.getByRole("heading", { name: "Welcome, Sam" })).toBeVisible();
  const elsewhere = await apiSession(request, user.email, PASSWORD);
  await elsewhere.expect(
    "DELETE",
    `/api/users/me/devices/${encodeURIComponent(await browserDeviceId(elsewhere))}`,
    204,
  );
}

test("a device signed out from another session goes to sign-in at once, told 'You were signed out on this device'", async ({
  page,
  request,
}) => {
  await signedOutElsewhere(page, request, "revoked-live");

  // No click, no reload: the socket tells the page.
  await expect(page).toHaveURL(/\/manage\/login$/, { timeout: 20_000 });
  await expect(reason(page)).toContainText("You were signed out on this device");
  await expect(reason(page)).toContainText("Sign in again to continue.");
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeEnabled();
  await shoot(page, "login-device-signed-out");

  // Said once: the sign-in screen opened again is plain.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(reason(page)).toHaveCount(0);
});

test("without the socket, the next request's 406 tells the same reason", async ({ page, request }) => {
  // The live channel is out of reach (a proxy that drops WebSockets, say): only HTTP is left.
  await page.route("**/socket.io/**", (route) => route.abort());
  const refused = page.waitForResponse((r) => r.url().includes("/api/") && r.status() === 406, {
    timeout: 60_000,
  });
  await signedOutElsewhere(page, request, "revoked-http");

  // The page's next call (a screen opened, or the token's scheduled refresh) is answered 406.
  // The e2e access token lives 5 s, so on a slow machine the scheduled refresh may come first
  // and take the page to sign-in before the menu is clicked: either call is the one under test.
  await page
    .getByTestId("user-menu")
    .click({ timeout: 5_000 })
    .then(() => page.getByRole("menuitem", { name: "My devices" }).click({ timeout: 5_000 }))
    .catch(() => undefined);
  await refused;
  await expect(page).toHaveURL(/\/manage\/login$/, { timeout: 20_000 });
  await expect(reason(page)).toContainText("You were signed out on this device");
});

test("a refresh the server refuses ends on sign-in with 'Unable to refresh token'", async ({ page }) => {
  await signInWithForm(page);
  await expect(page.getByTestId("user-menu")).toBeVisible();
  // The refresh token is no longer one the server knows (rotated away elsewhere, say): every
  // refresh from now on carries such a token to the real server, which refuses it. Swapped in
  // the request rather than in the cookie, which a refresh already on its way would overwrite.
  await page.route("**/api/auth/refreshtokenapp", (route) =>
    route.continue({
      postData: JSON.stringify({ refreshToken: "no-longer-valid" }),
      headers: { ...route.request().headers(), "content-type": "application/json" },
    }),
  );

  // The e2e access token lives 5 s: the scheduled refresh (or a 417) asks the server soon.
  await expect(page).toHaveURL(/\/manage\/login$/, { timeout: 30_000 });
  await expect(reason(page)).toContainText("Unable to refresh token");
  await expect(reason(page)).toContainText("Your session could not be renewed.");
  await shoot(page, "login-unable-to-refresh");
});

test("signing out reaches the server even when the page leaves at once, and clears local storage", async ({
  page,
  context,
  request,
}) => {
  const admin = await apiSession(request);
  const user = await createUser(admin, "sign-out");
  await signInWithForm(page, user.email, PASSWORD);
  await expect(page.getByTestId("user-menu")).toBeVisible();
  await page.evaluate(() => localStorage.setItem("currency", "EUR"));
  const stored = await page.evaluate(() => localStorage.getItem("device_id"));
  const elsewhere = await apiSession(request, user.email, PASSWORD);
  const thisDevice = async () => {
    const { data } = await elsewhere.expect<{ data: Array<{ deviceId: string; signedIn: boolean }> }>(
      "GET",
      "/api/users/me/devices",
      200,
    );
    return data.find((d) => d.deviceId.endsWith(`/${stored}`));
  };
  expect(await thisDevice()).toMatchObject({ signedIn: true });

  const sent = page.waitForRequest((r) => r.url().endsWith("/clients/logout") && r.method() === "POST");
  await page.getByTestId("user-menu").click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await sent;
  // The tab closes before any answer could come back: a keepalive request still completes.
  await page.close();
  await expect.poll(async () => (await thisDevice())?.signedIn, { timeout: 15_000 }).toBe(false);

  // Back on the app: signed out, local storage cleared (the device id stays), nothing to explain.
  const again = await context.newPage();
  await again.goto("login");
  await expect(again.getByRole("heading", { name: "Sign in" })).toBeVisible();
  expect(await again.evaluate(() => localStorage.getItem("currency"))).toBeNull();
  expect(await again.evaluate(() => localStorage.getItem("device_id"))).toBe(stored);
  expect(await cookie(context, "accessToken")).toBeUndefined();
  await expect(reason(again)).toHaveCount(0);
});

test("a set-password link is checked when opened: a used one says so at once; an unanswered check offers Retry", async ({
  page,
  request,
}) => {
  const admin = await apiSession(request);
  const user = await createUser(admin, "link");
  const forgot = await request.post(api("/api/auth/forgot-password"), { data: { email: user.email } });
  expect(forgot.status()).toBe(200);
  const mail = await waitForMail(admin, user.email, /reset/i);
  const link = /https?:\/\/\S+\/manage\/resetpassword\/\S+/.exec(mail.text)?.[0] as string;
  expect(link).toBeTruthy();

  // No answer to the check: the page says so with Retry, and shows no password fields yet.
  await page.route("**/api/auth/reset-password/info", (route) => route.abort("connectionrefused"));
  await page.goto(link);
  await expect(page.getByText("The link details could not be loaded")).toBeVisible();
  await expect(page.getByLabel("New password", { exact: true })).toHaveCount(0);
  await shoot(page, "reset-link-unchecked");
  await page.unroute("**/api/auth/reset-password/info");
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByLabel("New password", { exact: true })).toBeVisible();

  // Used elsewhere meanwhile: opened again, the page says so before anything is typed.
  const id = new URL(link).pathname.split("/").pop();
  const used = await request.post(api("/api/auth/reset-password"), {
    data: { id, password: "Brand-new-passw0rd" },
  });
  expect(used.status()).toBe(200);
  await page.goto(link);
  await expect(page.getByText("This reset link is invalid or has expired.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Request a new reset link" })).toBeVisible();
  await expect(page.getByLabel("New password", { exact: true })).toHaveCount(0);
  await shoot(page, "reset-link-used");
});
