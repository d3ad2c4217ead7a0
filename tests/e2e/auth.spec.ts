/** Sign-in, sign-out, the forgot/reset password flow and the 404 screen, in Chromium. */
import { expect, test } from "@playwright/test";
import { ADMIN_EMAIL, apiSession, createUser, signInWithForm, signOut, waitForMail } from "./helpers";

test("a wrong password shows the server's message and stays on the sign-in screen", async ({ page }) => {
  await page.goto("login");
  await page.getByLabel("Email", { exact: true }).fill(ADMIN_EMAIL);
  await page.getByLabel("Password", { exact: true }).fill("not-the-password");
  await page.getByLabel("Password", { exact: true }).press("Enter");
  await expect(page.getByText("Invalid email or password")).toBeVisible();
  await expect(page).toHaveURL(/\/manage\/login$/);
});

test("the admin signs in, sees every module in the menu, and signing out returns to /manage/login", async ({
  page,
}) => {
  await signInWithForm(page);
  const menu = page.getByRole("menu").first();
  for (const name of ["PDF library", "Products", "CMS", "CRM", "Forms", "Automation", "Analytics", "Users"]) {
    await expect(menu.getByText(name, { exact: true })).toBeVisible();
  }
  await signOut(page);
  // The session is gone on the server too: the app sends us back to sign in.
  await page.goto("users");
  await expect(page).toHaveURL(/\/manage\/login/);
});

test("forgot and reset password through the mailed link", async ({ page, request }) => {
  // The e2e server's access tokens live 5 s; the session refreshes its token across the browser steps.
  const admin = await apiSession(request);
  const email = `reset-${Date.now()}@example.com`;
  await createUser(admin, {
    first_name: "Rosa",
    last_name: "Reset",
    email,
    password: "Old-passw0rd",
    modules: [6],
  });

  await page.goto("login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/manage\/password_reset$/);
  // The sign-in form stays on screen while the next screen's code loads: wait for the new one.
  await expect(page.getByRole("heading", { name: "Forgot password" })).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(
    page.getByText("If an account exists for that email, a password reset link has been sent."),
  ).toBeVisible();

  const mail = await waitForMail(admin, email, /reset/i);
  const link = mail.text.match(/https?:\/\/\S+\/manage\/resetpassword\/\S+/)?.[0];
  expect(link).toBeTruthy();
  await page.goto(link as string);
  await page.getByLabel("New password", { exact: true }).fill("New-passw0rd!");
  await page.getByLabel("Confirm password", { exact: true }).fill("New-passw0rd!");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByText("Password changed")).toBeVisible();

  // The link works once: opened again, the page says so instead of showing the form.
  await page.goto(link as string);
  await expect(page.getByText("This reset link is invalid or has expired.")).toBeVisible();
  await expect(page.getByLabel("New password", { exact: true })).toHaveCount(0);

  await signInWithForm(page, email, "New-passw0rd!");
  await expect(page.getByText("Forms", { exact: true }).first()).toBeVisible();
});

test("the 404 screen's 'Go to home' reloads the site root", async ({ page }) => {
  await page.goto("404");
  await page.getByRole("button", { name: "Go to home" }).click();
  await expect(page).toHaveURL(/\/manage\/(login)?$/);
});
