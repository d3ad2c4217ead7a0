/** An admin creates a user with some modules; that user sees only those, and 403 elsewhere. */
import { expect, test } from "@playwright/test";
import { chooseRoleAndModules, signIn, signOut } from "./helpers";

test("module grants drive the menu, the screens and the API", async ({ page }) => {
  const email = `grant-${Date.now()}@example.com`;
  await signIn(page);
  await page.getByRole("menu").first().getByText("Users", { exact: true }).click();
  await expect(page).toHaveURL(/\/manage\/users/);
  await page
    .getByRole("button", { name: /create/i })
    .first()
    .click();
  await page.getByLabel("First name", { exact: true }).fill("Gina");
  await page.getByLabel("Last name", { exact: true }).fill("Granted");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("Gina-passw0rd");
  await chooseRoleAndModules(page, "User", ["PDF library", "Forms"]);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(email)).toBeVisible();

  await signOut(page);

  await signIn(page, email, "Gina-passw0rd");
  const menu = page.getByRole("menu").first();
  await expect(menu.getByText("PDF library", { exact: true })).toBeVisible();
  await expect(menu.getByText("Forms", { exact: true })).toBeVisible();
  for (const hidden of ["Users", "CRM", "Products", "Automation"]) {
    await expect(menu.getByText(hidden, { exact: true })).toHaveCount(0);
  }

  for (const path of ["users", "crm"]) {
    await page.goto(path);
    await expect(page.getByText("You do not have access to this module")).toBeVisible();
  }

  const status = await page.evaluate(async () => {
    const token = document.cookie.match(/accessToken=([^;]+)/)?.[1] ?? "";
    const res = await fetch("/api/users", {
      headers: { Authorization: `Bearer ${decodeURIComponent(token)}` },
    });
    return res.status;
  });
  expect(status).toBe(403);
});
