/**
 * Grant and role changes reach a signed-in user live (issue 13): in one browser context an
 * admin edits another user's modules and role; in a second context that user's menu, home
 * cards, role tag and open screen follow without a reload. Disabling them (confirmed first)
 * lands them on the sign-in screen with 'This account is disabled'.
 */
import { expect as baseExpect, type Page, test } from "@playwright/test";
import { apiSession, openSignedIn, signIn } from "./helpers";
import { shoot as shootBoth } from "./shots";

/** Two signed-in browsers and live events: generous, so a loaded machine is slower, not red. */
const expect = baseExpect.configure({ timeout: 30_000 });

test.describe.configure({ timeout: 240_000 });

const PASSWORD = "Granted-passw0rd";

const shoot = (page: Page, name: string) => shootBoth(page, "live-grants", name);

/** On the admin's page: the user's edit form, one module box set, saved. */
async function setModule(admin: Page, userId: string, module: string, on: boolean) {
  await admin.goto(`users/edit/${userId}`);
  const box = admin.getByRole("checkbox", { name: module });
  await expect(box).toBeVisible();
  await expect(async () => {
    await box.setChecked(on);
    await expect(box).toBeChecked({ checked: on, timeout: 1000 });
  }).toPass();
  await admin.getByRole("button", { name: "Save" }).click();
  await expect(admin).toHaveURL(new RegExp(`/users/show/${userId}$`));
}

test("an admin's grant and role changes reach the user's menu, home cards and open screen without a reload; disabling signs them out", async ({
  browser,
  request,
}) => {
  const api = await apiSession(request);
  const email = `live-${Date.now()}@example.com`;
  const { id } = await api.expect<{ id: string }>("POST", "/api/users", 201, {
    first_name: "Lena",
    last_name: "Live",
    email,
    password: PASSWORD,
    role: 3,
    modules: [2],
  });

  const userContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const adminContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const user = await userContext.newPage();
  const admin = await adminContext.newPage();
  await signIn(user, email, PASSWORD);
  await signIn(admin);

  const cards = user.getByRole("list", { name: "Your modules" });
  const menu = user.getByRole("menu").first();
  await expect(cards.getByText("Products", { exact: true })).toBeVisible();
  await expect(cards.getByText("PDF library", { exact: true })).toHaveCount(0);
  await expect(menu.getByText("PDF library", { exact: true })).toHaveCount(0);
  // Survives only if the page is never reloaded.
  await user.evaluate(() => {
    (window as Window & { sameDocument?: boolean }).sameDocument = true;
  });
  const sameDocument = () =>
    user.evaluate(() => (window as Window & { sameDocument?: boolean }).sameDocument);

  // Granted: the module appears in the menu and on the home screen.
  await setModule(admin, id, "PDF library", true);
  await expect(cards.getByText("PDF library", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(menu.getByText("PDF library", { exact: true })).toBeVisible();
  expect(await sameDocument()).toBe(true);
  await shoot(user, "live-granted-home");

  // Revoked while its screen is open: the screen turns into the no-access state.
  await user.setViewportSize({ width: 1440, height: 900 });
  await menu.getByText("PDF library", { exact: true }).click();
  await expect(user).toHaveURL(/\/manage\/pdf/);
  await expect(user.getByText("You do not have access to this module")).toHaveCount(0);
  await setModule(admin, id, "PDF library", false);
  await expect(user.getByText("You do not have access to this module")).toBeVisible({ timeout: 20_000 });
  await expect(menu.getByText("PDF library", { exact: true })).toHaveCount(0);
  expect(await sameDocument()).toBe(true);
  await shoot(user, "live-revoked-screen");

  // A role change: the header's role tag follows.
  await user.setViewportSize({ width: 1440, height: 900 });
  const header = user.locator("header");
  await expect(header.getByText("User", { exact: true })).toBeVisible();
  await api.expect("PATCH", `/api/users/${id}`, 200, { role: 2 });
  await expect(header.getByText("Admin", { exact: true })).toBeVisible({ timeout: 20_000 });
  expect(await sameDocument()).toBe(true);

  // Disabled from the users list, after a confirmation: signed out at once, told why.
  await admin.goto("users");
  const row = admin.getByRole("row").filter({ hasText: email });
  await row.getByRole("button", { name: "Disable" }).click();
  const confirm = admin.getByRole("tooltip").filter({ hasText: "Disable Lena Live?" });
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText("signed out on every device");
  await shoot(admin, "disable-confirm");
  await confirm.getByRole("button", { name: "Yes, disable" }).click();
  await expect(row.getByText("Disabled", { exact: true })).toBeVisible();

  await expect(user).toHaveURL(/\/manage\/login$/, { timeout: 20_000 });
  await expect(user.getByTestId("signed-out-reason")).toContainText("This account is disabled");
  await shoot(user, "login-account-disabled");

  await userContext.close();
  await adminContext.close();
});

test("disabling from the edit form asks first, and Cancel changes nothing", async ({ page, request }) => {
  const api = await apiSession(request);
  const email = `confirm-${Date.now()}@example.com`;
  const { id } = await api.expect<{ id: string }>("POST", "/api/users", 201, {
    first_name: "Cora",
    last_name: "Confirm",
    email,
    password: PASSWORD,
    role: 3,
    modules: [],
  });
  await openSignedIn(page, `users/edit/${id}`);
  const active = page.getByRole("switch", { name: "Active" });
  await expect(active).toBeChecked();
  await active.click();
  await page.getByRole("button", { name: "Save" }).click();

  const dialog = page.getByRole("dialog").filter({ hasText: "Disable Cora Confirm?" });
  await expect(dialog).toBeVisible();
  await shoot(page, "disable-confirm-edit");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  expect((await api.expect<{ active: boolean }>("GET", `/api/users/${id}`, 200)).active).toBe(true);

  await page.getByRole("button", { name: "Save" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Yes, disable" }).click();
  await expect(page).toHaveURL(new RegExp(`/users/show/${id}$`));
  expect((await api.expect<{ active: boolean }>("GET", `/api/users/${id}`, 200)).active).toBe(false);
});
