/**
 * Custom fields (issue 16, spec §3 `customFieldsData`): an admin adds a field to clients under
 * CRM › Custom fields, and it is at once a column of the clients' list, a filter, a field of
 * the create form (a choice from a dropdown list, by label) and a line of the client's page —
 * and a field added while the list is open appears in it without a reload. Owners are picked
 * by name among the people (`/api/people`), and sources from their dropdown list.
 */
import { expect, test } from "@playwright/test";
import { apiSession, choose, combobox, openSignedIn } from "./helpers";
import { shoot } from "./shots";

// Several screens, each a lazy chunk, on a busy machine.
test.describe.configure({ timeout: 240_000 });

test("add a custom field and see it in list, form and filter", async ({ page, request }) => {
  const admin = await apiSession(request);
  const stamp = Date.now().toString().slice(-6);
  const me = await admin.expect<{ first_name: string; last_name: string }>("GET", "/api/users/me", 200);
  const owner = `${me.first_name} ${me.last_name}`.trim();
  await admin.expect("POST", "/crm/dropdowns", 201, { list: "company_tier", value: "gold", label: "Gold" });
  await admin.expect("POST", "/crm/dropdowns", 201, {
    list: "company_tier",
    value: "silver",
    label: "Silver",
  });
  await admin.expect("POST", "/crm/clients", 201, { name: `Silver Client ${stamp}`, source: "referral" });

  await openSignedIn(page, "crm/custom-fields");
  await page.getByRole("button", { name: "Add field" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a custom field" });
  await dialog.getByLabel("Label", { exact: true }).fill("Tier");
  await expect(dialog.getByLabel("Key", { exact: true })).toHaveValue("tier");
  await choose(page, "Type", "Choice from a dropdown list");
  await choose(page, "Dropdown list", "Company tier (company_tier)");
  await shoot(page, "crm-custom-fields", "add-field");
  await dialog.getByRole("button", { name: "Add" }).click();
  await expect(page.getByText("Tier added")).toBeVisible();
  const row = page.getByRole("row", { name: /Tier/ });
  await expect(row).toContainText("Choice from Company tier");
  await shoot(page, "crm-custom-fields", "custom-fields");

  // The list: a column and a filter of its own, the choice shown by its label.
  await page.goto("crm/clients");
  // A page load: the app, the list's code and the custom fields, one after the other, take their
  // time on a busy machine.
  await expect(page.getByRole("columnheader", { name: "Tier" })).toBeVisible({ timeout: 60_000 });
  // The select itself: antd puts its aria-label on the wrapper too.
  await expect(combobox(page, "Filter by Tier")).toBeVisible();
  await expect(combobox(page, "Filter by Source")).toBeVisible();
  // A yes-or-no filter reads as its field's words, acronyms kept (not "Any agrees to sms", issue 27).
  await expect(page.getByText("Agrees to SMS: any", { exact: true })).toBeVisible();

  // The form: the field among the others, its options by label; the owner by name.
  await page
    .getByRole("link", { name: /Create/ })
    .first()
    .click();
  // The form, once it is up (until then "Name" is also the list's column).
  await expect(page.getByRole("heading", { name: "Create client" })).toBeVisible({ timeout: 60_000 });
  await page.getByLabel("Name", { exact: true }).fill(`Gold Client ${stamp}`);
  // "an" before a vowel (not "Choose a industry", issue 27).
  await expect(page.getByText("Choose an industry", { exact: true })).toBeVisible();
  await choose(page, "Tier", "Gold");
  await choose(page, "Source", "Website");
  await choose(page, "Owner", owner, { type: true });
  await shoot(page, "crm-custom-fields", "client-form");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Client created")).toBeVisible({ timeout: 30_000 });
  // The client's page loads its code on first use.
  const details = page.locator(".ant-descriptions").filter({ hasText: "Tier" });
  await expect(details).toContainText("Gold", { timeout: 60_000 });
  await expect(details).toContainText("Website");
  await expect(details).toContainText(owner);

  // The filter: only the gold client.
  await page.goto("crm/clients");
  await choose(page, "Filter by Tier", "Gold");
  await expect(page.getByRole("link", { name: `Gold Client ${stamp}` })).toBeVisible();
  await expect(page.getByRole("link", { name: `Silver Client ${stamp}` })).toBeHidden();
  await expect(page.getByRole("row", { name: new RegExp(`Gold Client ${stamp}`) })).toContainText("Gold");
  await shoot(page, "crm-custom-fields", "clients-filtered");

  // Added while the list is open (by another admin): the column comes at once.
  await admin.expect("POST", "/crm/custom-fields", 201, {
    entity: "clients",
    key: "industry_size",
    label: "Industry size",
    type: "number",
  });
  await expect(page.getByRole("columnheader", { name: "Industry size" })).toBeVisible();
});
