/**
 * Ready-made flows (issue 30): from the automations list a person opens "Start from a template",
 * picks "New form answer → client + welcome email" with the keyboard, names it, lands in the
 * builder with the one choice left (the form) marked, chooses the form, publishes; a respondent
 * then answers the form on its public page, and the run (tagged, agreed, welcome sent) is in the
 * automation's history and the welcome mail in the outbox.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { defaultSettings } from "../../schemas/form-definition";
import { apiSession, dialogOpened, openSignedIn, waitForMail } from "./helpers";
import { shoot } from "./shots";

test.describe.configure({ timeout: 240_000 });

const definition = {
  fields: [
    { id: "name", kind: "text", label: "Full name", required: true, validation: { maxLength: 80 } },
    { id: "email", kind: "email", label: "Work email", required: true, validation: { maxLength: 320 } },
  ],
  settings: {
    ...defaultSettings(),
    submit: { buttonLabel: "Send", successMessage: "Thanks, we will be in touch." },
  },
};

/** Serious and critical accessibility violations of the page as it is now. */
async function violations(page: Page): Promise<string[]> {
  const { violations: found } = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ["violations"] })
    .analyze();
  return found
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target.join(" ")}: ${v.help}`));
}

/** Picks `option` in the select whose input has `id` (the builder's selects are named by id). */
async function pick(page: Page, id: string, option: string) {
  const box = page.locator(`#${id}`);
  await expect(async () => {
    if ((await box.getAttribute("aria-expanded")) !== "true") await box.click({ force: true });
    await page
      .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)")
      .locator(`.ant-select-item-option[title="${option}"]`)
      .click({ timeout: 5_000 });
    await expect(page.locator(".ant-select-selection-item", { hasText: option }).first()).toBeVisible({
      timeout: 2_000,
    });
  }).toPass({ timeout: 30_000 });
}

test("a person starts from a template, makes its one choice, publishes, and sees a form answer's run", async ({
  page,
  request,
}) => {
  const run = Date.now().toString(36);
  const admin = await apiSession(request);
  const slug = `welcome-${run}`;
  const formName = `Contact us ${run}`;
  const form = await admin.expect<{ id: string }>("POST", "/forms/forms", 201, { name: formName, slug });
  const { revision } = await admin.expect<{ revision: number }>("GET", `/forms/forms/${form.id}/draft`, 200);
  await admin.expect("PUT", `/forms/forms/${form.id}/draft`, 200, { definition, revision });
  await admin.expect("POST", `/forms/forms/${form.id}/publish`, 200);
  // Someone who agreed to email earlier: the welcome goes to them.
  const email = `ada.${run}@example.com`;
  await admin.expect("POST", "/crm/clients", 201, { name: `Ada ${run}`, email, consent_email: true });

  await openSignedIn(page, "automation/automations");
  await page.getByRole("button", { name: "Start from a template" }).click();
  const gallery = page.getByRole("dialog", { name: "Start from a template" });
  await dialogOpened(gallery);
  const card = gallery.getByRole("button", { name: /^New form answer → client \+ welcome email/ });
  await expect(card).toContainText("Form submitted → Add tag → Condition → Send email → Create record");
  await expect(gallery.getByRole("listitem")).toHaveCount(6);
  await shoot(page, "automation-templates", "gallery");
  expect(await violations(page)).toEqual([]);
  // Keyboard: the cards are buttons in the tab order.
  await card.focus();
  await page.keyboard.press("Enter");
  const naming = page.getByRole("dialog", { name: /^Start from “New form answer/ });
  await expect(naming.getByText("Choose the form whose answers start the flow")).toBeVisible();
  const name = naming.getByLabel("Name of the new automation");
  await expect(name).toBeFocused();
  await name.fill(`Welcome ${run}`);
  await shoot(page, "automation-templates", "name");
  await naming.getByRole("button", { name: "Create draft" }).click();

  // The builder, on the new draft: never published, the form to choose marked on the trigger.
  await expect(page.getByRole("heading", { name: `Welcome ${run}` })).toBeVisible({ timeout: 60_000 });
  const canvas = page.getByTestId("automation-canvas");
  await expect(canvas.getByRole("button", { name: "Trigger: Form submitted" })).toBeVisible({
    timeout: 60_000,
  });
  const todo = page.getByRole("status").filter({ hasText: "1 choice to make before you publish" });
  await expect(todo).toBeVisible();
  await expect(todo).toContainText("Trigger (Form submitted): choose the form");
  await expect(page.getByText("Never published")).toBeVisible();
  await expect(canvas.locator(".af-node--problem")).toHaveCount(1);
  await shoot(page, "automation-templates", "choices");
  expect(await violations(page)).toEqual([]);

  // The trigger is selected: its form is chosen as a person would.
  await pick(page, "af-trigger-form", formName);
  await expect(page.getByRole("status").filter({ hasText: "every choice is made" })).toBeVisible();
  await expect(canvas.locator(".af-node--problem")).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: "Draft saved" })).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Published as version 1")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("Version 1 is live")).toBeVisible();
  await shoot(page, "automation-templates", "published");
  const automationUrl = page.url();

  // A respondent answers on the public page.
  await page.goto(`/forms/f/${slug}`);
  await page.getByLabel("Full name").fill(`Ada ${run}`);
  await page.getByLabel("Work email").fill(email);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("Thanks, we will be in touch.")).toBeVisible();

  // The run: tagged, agreed to email, welcomed.
  await page.goto(automationUrl.replace(/\?.*$/, "?tab=runs"));
  const row = page.locator(".af-run-row").first();
  await expect(row).toContainText("Finished", { timeout: 60_000 });
  await row.click();
  const steps = page.getByTestId("run-step");
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(0)).toContainText("Mark as a new lead");
  await expect(steps.nth(1)).toContainText("Took the Yes branch");
  await expect(steps.nth(2)).toContainText("Welcome email");
  await expect(
    steps
      .nth(2)
      .getByRole("row", { name: `To ${email}` })
      .first(),
  ).toBeVisible();
  await shoot(page, "automation-templates", "run");
  await waitForMail(admin, email, /^Welcome, Ada$/);
});
