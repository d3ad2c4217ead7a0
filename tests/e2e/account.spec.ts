/**
 * Passwords through the screens: a user changes their own password on the account page
 * (reached from the user menu), and an admin invites a user whose set-password link is read
 * from the Mail outbox screen.
 */
import { expect, type Page, test } from "@playwright/test";
import {
  api,
  apiSession,
  apiSignIn,
  chooseRoleAndModules,
  createUser,
  signInWithForm,
  signOut,
} from "./helpers";

const COMMON = "This password is too common and easy to guess. Choose another.";

// Long flows (two or three sign-ins each, several screens): room for a busy machine.
test.describe.configure({ timeout: 90_000 });

/** The error shown under the form field labelled `label`. */
const fieldError = (page: Page, label: string) =>
  page
    .locator(".ant-form-item")
    .filter({ has: page.getByLabel(label, { exact: true }) })
    .locator(".ant-form-item-explain-error");

test("a user changes their own password from the account page and signs out their other devices", async ({
  page,
  request,
}) => {
  const admin = await apiSession(request);
  const email = `account-${Date.now()}@example.com`;
  await createUser(admin, {
    first_name: "Cora",
    last_name: "Changer",
    email,
    password: "Cora-Lantern-41",
    modules: [5],
  });
  // Another device of the same user, signed in through the API.
  const other = await apiSignIn(request, email, "Cora-Lantern-41");

  await signInWithForm(page, email, "Cora-Lantern-41");
  await page.getByTestId("user-menu").click();
  await page.getByRole("menuitem", { name: "My account" }).click();
  await expect(page).toHaveURL(/\/manage\/account$/);
  await expect(page.getByText(email)).toBeVisible();

  const current = page.getByLabel("Current password", { exact: true });
  const next = page.getByLabel("New password", { exact: true });
  const confirm = page.getByLabel("Confirm new password", { exact: true });
  const submit = page.getByRole("button", { name: "Change password" });

  // Wrong current password and a common new one: both refused, each under its field.
  await current.fill("Not-my-Lantern-0");
  await next.fill("Password123");
  await confirm.fill("Password123");
  await submit.click();
  await expect(fieldError(page, "Current password")).toHaveText("Your current password is not correct.");
  await expect(fieldError(page, "New password")).toHaveText(COMMON);

  // The two new passwords must match before anything is sent.
  await current.fill("Cora-Lantern-41");
  await next.fill("Cora-Lantern-42");
  await confirm.fill("Cora-Lantern-43");
  await submit.click();
  await expect(fieldError(page, "Confirm new password")).toHaveText("The passwords do not match");

  await confirm.fill("Cora-Lantern-42");
  await expect(page.getByRole("checkbox", { name: "Sign out my other devices" })).toBeChecked();
  await submit.click();
  await expect(page.getByRole("status")).toContainText(
    "Your password has been changed. 1 other device was signed out.",
  );
  await expect(current).toHaveValue("");

  // The other device is signed out (its refresh is refused: access tokens live 5 s here); this one still works.
  const otherAnswer = await request.post(api("/api/auth/refreshtokenapp"), {
    data: { refreshToken: other.refreshToken },
  });
  expect(otherAnswer.status()).toBe(401);
  // A click while the menu is still opening can be lost on a busy machine: open it and try again.
  await expect(async () => {
    const item = page.getByRole("menuitem", { name: "My devices" });
    if (!(await item.isVisible())) await page.getByTestId("user-menu").click();
    await item.click({ timeout: 2000 });
    await expect(page).toHaveURL(/\/manage\/account\/devices$/, { timeout: 3000 });
  }).toPass({ timeout: 15_000 });

  await signOut(page);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("Cora-Lantern-41");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("Invalid email or password")).toBeVisible();
  await signInWithForm(page, email, "Cora-Lantern-42");
});

test("an admin invites a user, who sets a password from the link in the Mail outbox", async ({ page }) => {
  const email = `invitee-${Date.now()}@example.com`;
  await signInWithForm(page);
  await page.goto("users/create");
  await page.getByLabel("First name", { exact: true }).fill("Ines");
  await page.getByLabel("Last name", { exact: true }).fill("Invited");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("radio", { name: "Send an invitation email" }).check();
  await expect(page.getByLabel("Password", { exact: true })).toHaveCount(0);
  await chooseRoleAndModules(page, "User", ["Forms"]);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
  await expect(page.getByText("Invitation pending")).toBeVisible();
  await expect(page.getByRole("button", { name: "Resend invitation" })).toBeVisible();

  // The link, as an admin without SMTP reads it: in the Mail outbox screen.
  await page.goto("outbox");
  const row = page
    .getByRole("row")
    .filter({ hasText: email })
    .filter({ hasText: "You are invited to Atelier" });
  // Its status in words with a capital, as the SMS outbox says it (issue 27).
  await expect(row.getByRole("cell", { name: "Stored in the outbox", exact: true })).toBeVisible({
    timeout: 60_000,
  });
  await row.getByRole("button", { name: "Open" }).click();
  const body = page.getByLabel("Mail body");
  await expect(body).toContainText("expires in 7 days");
  const link = await body.getByRole("link", { name: /\/manage\/resetpassword\// }).getAttribute("href");
  expect(link).toMatch(/\/manage\/resetpassword\/[A-Za-z0-9_-]{40,}$/);
  await page.keyboard.press("Escape");
  await signOut(page);

  // Before setting a password, the invited user cannot sign in.
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("Ines-Lantern-47");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("Invalid email or password")).toBeVisible();

  await page.goto(link as string);
  await expect(page.getByText("Set your password").first()).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("iloveyou1");
  await page.getByLabel("Confirm password", { exact: true }).fill("iloveyou1");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(fieldError(page, "Password")).toHaveText(COMMON);

  await page.getByLabel("Password", { exact: true }).fill("Ines-Lantern-47");
  await page.getByLabel("Confirm password", { exact: true }).fill("Ines-Lantern-47");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByText("Password set")).toBeVisible();
  await expect(page.getByText("Your password is set. You can now sign in.")).toBeVisible();

  // Single use.
  await page.goto(link as string);
  await expect(page.getByText("This reset link is invalid or has expired.")).toBeVisible();

  await signInWithForm(page, email, "Ines-Lantern-47");
  await expect(page.getByRole("menu").first().getByText("Forms", { exact: true })).toBeVisible();
});
