/**
 * Any entity starts a flow and is a step's target (issue 30): a person picks "Category updated"
 * as the trigger, only when its Description changes, adds a "Find record" step on Products (the
 * category's product) and an "Update record" step on it, publishes, edits the category in its
 * form, and sees the run finish and the product changed.
 */
import { expect, type Page, test } from "@playwright/test";
import { apiSession, navigateInApp, openSignedIn } from "./helpers";
import { shoot } from "./shots";

test.describe.configure({ timeout: 240_000 });

/** Picks `option` in the select whose input has `id`, typing it first in a long, searchable list. */
async function pick(page: Page, id: string, option: string, search = true) {
  const box = page.locator(`#${id}`);
  const chosen = page.locator(".ant-select-selection-item", { hasText: option });
  await expect(async () => {
    if ((await box.getAttribute("aria-expanded")) !== "true") await box.click({ force: true });
    if (search) await box.fill(option);
    await page
      .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)")
      .locator(`.ant-select-item-option[title="${option}"]`)
      .click({ timeout: 5_000 });
    await expect(chosen.first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

test("a category's update starts a flow that finds and updates its product", async ({ page, request }) => {
  const run = Date.now().toString(36);
  const admin = await apiSession(request);
  const category = await admin.expect<{ id: string }>("POST", "/api/categories", 201, {
    name: `Lamps ${run}`,
    description: "Desk lamps",
  });
  const product = await admin.expect<{ id: string }>("POST", "/api/products", 201, {
    sku_code: `LAMP-${run}`.toUpperCase(),
    name: `Brass lamp ${run}`,
    price: 49,
    category_id: category.id,
  });
  const automation = await admin.expect<{ id: string }>("POST", "/api/automations", 201, {
    name: `Category news ${run}`,
  });

  await openSignedIn(page, `automation/automations/show/${automation.id}`);
  const canvas = page.getByTestId("automation-canvas");
  const node = (name: string | RegExp) =>
    canvas.getByRole("button", { name, exact: typeof name === "string" });
  const sidebar = page.getByRole("complementary", { name: "Selected step" });
  await expect(node("Trigger: Client created")).toBeVisible({ timeout: 60_000 });

  // The trigger: a category updated, only when its description changes.
  await node("Trigger: Client created").click();
  await pick(page, "af-trigger-kind", "Category updated");
  await expect(node("Trigger: Category updated")).toBeVisible();
  await pick(page, "af-trigger-fields", "Description");

  // Step 1: find the category's product.
  await node("Add a step after the trigger").click();
  await sidebar.getByRole("button", { name: /^Action/ }).click();
  await pick(page, "af-action-type", "Find record", false);
  await pick(page, "af-action-resource", "Products");
  await sidebar.getByRole("button", { name: "Add field" }).click();
  await page.locator("#af-action-match-0-name").fill("category_id");
  await page.locator("#af-action-match-0-value").fill("{{trigger.id}}");
  await expect(node("Step 1: Find record")).toBeVisible();

  // Step 2: update it, with the category's new description and the product's name it found.
  await node("Add a step after step 1").click();
  await sidebar.getByRole("button", { name: /^Action/ }).click();
  await pick(page, "af-action-type", "Update record", false);
  await pick(page, "af-action-resource", "Products");
  await page.locator("#af-action-recordId").fill("{{steps.action-1.id}}");
  await sidebar.getByRole("button", { name: "Add field" }).click();
  await page.locator("#af-action-fields-0-name").fill("description");
  await page
    .locator("#af-action-fields-0-value")
    .fill("{{steps.action-1.record.name}}: now in {{trigger.description}}");
  await expect(node("Step 2: Update record")).toBeVisible();
  await node("Trigger: Category updated").click();
  await expect(canvas).toContainText("When description changes");
  await expect(sidebar.locator(".ant-select-selection-item", { hasText: "Description" })).toBeVisible();
  await shoot(page, "automation-entities", "builder");

  await expect(page.getByRole("status").filter({ hasText: "Draft saved" })).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Published as version 1")).toBeVisible({ timeout: 20_000 });

  // A change of another field starts nothing; the description's does.
  await admin.expect("PATCH", `/api/categories/${category.id}`, 200, { name: `Lamps ${run} (all)` });
  await navigateInApp(page, `/manage/products/categories/edit/${category.id}`);
  const description = page.getByLabel("Description", { exact: true });
  await expect(description).toHaveValue("Desk lamps", { timeout: 30_000 });
  await description.fill("Desk and floor lamps");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Changes saved")).toBeVisible();

  // The run, in the automation's history: both steps done.
  await navigateInApp(page, `/manage/automation/automations/show/${automation.id}`);
  await page.getByRole("tab", { name: /Runs/ }).click();
  const row = page.locator(".af-run-row");
  await expect(row.first()).toContainText("Finished", { timeout: 60_000 });
  await expect(row).toHaveCount(1);
  await row.first().click();
  const steps = page.getByTestId("run-step");
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText("Find record");
  await expect(steps.nth(1)).toContainText("Update record");
  await expect(steps.nth(1)).toContainText("Done");
  await shoot(page, "automation-entities", "run");

  const updated = await admin.expect<{ description: string }>("GET", `/api/products/${product.id}`, 200);
  expect(updated.description).toBe(`Brass lamp ${run}: now in Desk and floor lamps`);
});
