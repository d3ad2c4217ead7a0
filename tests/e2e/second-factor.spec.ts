/**
 * Two-step sign-in through the screens: a fresh user sets up an authenticator app from My
 * account (reading the key shown as text, as someone typing it into an app would), signs out,
 * and signs in again with a code computed here from that key; the devices list says the
 * session passed the second step. An admin then resets it from the user's page.
 */
import { expect, type Page, test } from "@playwright/test";
import { totpAt } from "../../server/auth/totp";
import { apiSession, apiSignIn, createUser, signIn, signOut } from "./helpers";
import { shoot } from "./shots";

test.describe.configure({ timeout: 120_000 });

const PASSWORD = "Tess-Two-Step-42";

/**
 * Waits (with a deadline) until the 30-second step has at least 6 s left, so a code computed
 * now is still inside the server's window when it is typed and sent.
 */
async function awayFromStepEdge() {
  await expect.poll(() => (Date.now() / 1000) % 30, { timeout: 12_000, intervals: [250] }).toBeLessThan(24);
}

async function fillLogin(page: Page, email: string) {
  await page.goto("login");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

test("a user sets up two-step sign-in from My account and signs in with a code", async ({
  page,
  request,
}) => {
  const admin = await apiSession(request);
  const email = `two-step-${Date.now()}@example.com`;
  await createUser(admin, {
    first_name: "Tess",
    last_name: "Twostep",
    email,
    password: PASSWORD,
    modules: [1],
  });

  await signIn(page, email, PASSWORD);
  await page.goto("account");
  const card = page.locator("#second-factor");
  await expect(card.getByText("Protect your account")).toBeVisible({ timeout: 30_000 });
  await card.getByRole("button", { name: "Set up" }).click();

  const dialog = page.getByRole("dialog", { name: "Set up two-step sign-in" });
  await expect(dialog.getByTestId("totp-qr")).toBeVisible({ timeout: 30_000 });
  const secret = ((await dialog.getByTestId("totp-secret").innerText()) ?? "").replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await shoot(page, "second-factor", "enrolment-dialog");

  // A wrong code is refused under the field; the dialog stays.
  await dialog.getByLabel("2. Enter the 6-digit code the app shows").fill("000000");
  await dialog.getByRole("button", { name: "Turn on" }).click();
  await expect(dialog.getByText(/not right/)).toBeVisible();

  await awayFromStepEdge();
  // The previous step's code (inside the window): the sign-in below then uses a later one.
  await dialog
    .getByLabel("2. Enter the 6-digit code the app shows")
    .fill(totpAt(secret, Date.now() - 30_000));
  await dialog.getByRole("button", { name: "Turn on" }).click();
  const codesDialog = page.getByRole("dialog", { name: "Your recovery codes" });
  await expect(codesDialog.getByTestId("recovery-codes").locator("li")).toHaveCount(10);
  await shoot(page, "second-factor", "recovery-codes");
  await codesDialog.getByRole("button", { name: "I have saved my codes" }).click();
  await expect(card.getByText("On", { exact: true })).toBeVisible();
  await expect(card.getByText("10 recovery codes left.")).toBeVisible();

  await signOut(page);
  await fillLogin(page, email);
  await expect(page.getByRole("heading", { name: "Two-step sign-in" })).toBeVisible();
  const code = page.getByLabel("Authentication code");
  await expect(code).toBeFocused();
  await shoot(page, "second-factor", "second-step");

  await code.fill("123456");
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("That code is not right");
  // The field takes the next code at once: focused again, as it was disabled while checked.
  await expect(code).toBeFocused();
  await shoot(page, "second-factor", "second-step-wrong-code");

  await awayFromStepEdge();
  // Put in whole as a paste does, the way the app shows it ("123 456"): kept as the six
  // digits, and Enter sends it.
  const now = totpAt(secret, Date.now());
  await code.fill(`${now.slice(0, 3)} ${now.slice(3)}`);
  await expect(code).toHaveValue(now);
  await code.press("Enter");
  await expect(page).not.toHaveURL(/\/login(\?|$)/);

  await page.goto("account/devices");
  const row = page.getByRole("row").filter({ hasText: "This device" });
  await expect(row.getByText("Verified")).toBeVisible({ timeout: 30_000 });
  await shoot(page, "second-factor", "devices");
});

test("an admin resets a user's two-step sign-in from the user's page", async ({ page, request }) => {
  const admin = await apiSession(request);
  const email = `two-step-reset-${Date.now()}@example.com`;
  await createUser(admin, { first_name: "Rex", last_name: "Reset", email, password: PASSWORD, modules: [1] });
  // Enrolled through the API as that user.
  const user = await apiSession(request, email, PASSWORD);
  const begun = await user.expect<{ secret: string }>("POST", "/api/users/me/second-factor/enrol", 200, {});
  await user.expect("POST", "/api/users/me/second-factor/confirm", 200, {
    code: totpAt(begun.secret, Date.now()),
  });

  await signIn(page);
  await page.goto(`users/show/${user.user.userID}`);
  // The user's screen is its own chunk: room for a busy machine.
  await expect(page.getByText("Two-step sign-in", { exact: true })).toBeVisible({ timeout: 30_000 });
  await shoot(page, "second-factor", "user-page");
  await page.getByRole("button", { name: "Reset two-step sign-in" }).click();
  await page.getByRole("button", { name: "Yes, reset" }).click();
  await expect(page.getByRole("button", { name: "Reset two-step sign-in" })).toHaveCount(0);
  await expect(
    page.locator("th", { hasText: "Two-step sign-in" }).locator("xpath=following-sibling::td[1]"),
  ).toHaveText("Off");
  // The password alone signs them in again.
  await apiSignIn(request, email, PASSWORD);
});

test("an admin opens who must use two-step sign-in from the users list", async ({ page }) => {
  await signIn(page);
  await page.goto("users");
  await page.getByRole("button", { name: "Two-step sign-in" }).click();
  const dialog = page.getByRole("dialog", { name: "Require two-step sign-in" });
  await expect(dialog.getByRole("radio", { name: /Nobody/ })).toBeChecked({ timeout: 30_000 });
  // Shot once the dialog has finished zooming in, not half drawn.
  await expect(page.locator(".ant-zoom-appear, .ant-zoom-enter")).toHaveCount(0);
  await shoot(page, "second-factor", "policy-dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();
});
