/**
 * Automation (issue 17): a flow built on the canvas (trigger filter, condition, delay, email),
 * a middle step deleted (the next one joins the condition and the numbers close up), published,
 * then a client created through the API starts a run whose steps complete in the run history.
 */
import { expect, type Page, test } from "@playwright/test";
import { apiSession, dialogOpened, navigateInApp, openSignedIn } from "./helpers";
import { shoot } from "./shots";

test.describe.configure({ timeout: 240_000 });

/** Picks `option` in the select whose input has `id` (the builder's selects are named by id). */
async function pick(page: Page, id: string, option: string) {
  const box = page.locator(`#${id}`);
  const chosen = page.locator(".ant-select-selection-item", { hasText: option });
  await expect(async () => {
    if ((await box.getAttribute("aria-expanded")) !== "true") await box.click({ force: true });
    await page
      .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)")
      .locator(`.ant-select-item-option[title="${option}"]`)
      .click({ timeout: 5_000 });
    await expect(chosen.first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

test("build a flow on the canvas, delete a middle step, publish, and watch a client's run complete", async ({
  page,
  request,
}) => {
  const run = Date.now().toString(36);
  const admin = await apiSession(request);
  const automation = await admin.expect<{ id: string }>("POST", "/api/automations", 201, {
    name: `Welcome ${run}`,
    description: "Greets a new client",
  });

  // Every draft save, and what it answered: none may be a 409 (no one else edits this draft).
  const saves: Array<{ revision: number }> = [];
  const answers: Array<{ status: number; revision: number }> = [];
  let releaseFirst = () => {};
  const firstHeld = new Promise<void>((resolve) => {
    releaseFirst = resolve;
  });
  await page.route("**/api/automations/*/draft", async (route) => {
    if (route.request().method() !== "PUT") return route.fallback();
    saves.push(route.request().postDataJSON());
    // The first save is held until the test lets it go: as the first save after the server
    // starts is, which compiles the draft's schema and outlasts the autosave's delay.
    if (saves.length === 1) await firstHeld;
    await route.continue();
  });
  page.on("response", (response) => {
    if (response.request().method() === "PUT" && /\/api\/automations\/[^/]+\/draft$/.test(response.url()))
      answers.push({ status: response.status(), revision: response.request().postDataJSON().revision });
  });
  // A clock the test can move on: the autosave's delay passes at once when the test says so.
  await page.clock.install();

  await openSignedIn(page, `automation/automations/show/${automation.id}`);
  const canvas = page.getByTestId("automation-canvas");
  const node = (name: string | RegExp) =>
    canvas.getByRole("button", { name, exact: typeof name === "string" });
  const sidebar = page.getByRole("complementary", { name: "Selected step" });
  const saveStatus = page.locator(".af-toolbar").getByRole("status");
  // The canvas's code loads with the page: give a busy machine the time.
  await expect(node("Trigger: Client created")).toBeVisible({ timeout: 60_000 });

  // The trigger: only this test's clients (company is "Acme <run>"), as two quick edits of the
  // brand-new automation, the second while the first one's save is still on its way (issue 27:
  // the builder showed "Someone else saved this draft" to the only user there is).
  await node("Trigger: Client created").click();
  await sidebar.getByRole("button", { name: "Add rule" }).click();
  await page.locator("#af-trigger-filter-0-field").fill("company");
  await expect.poll(() => saves.length).toBeGreaterThanOrEqual(1);
  await page.locator("#af-trigger-filter-0-value").fill(`Acme ${run}`);
  // Every autosave delay that is running ends now, while the first save is still held.
  await page.clock.fastForward(2_000);
  releaseFirst();
  // Both edits saved, one after the other: the second on the revision the first answered.
  // (A 417 is an access token that expired while the save was held: it is sent again.)
  const answered = () => answers.filter((a) => a.status !== 417);
  await expect.poll(() => answered().length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  expect(answered().map((a) => a.status)).not.toContain(409);
  const done = answered().map((a) => a.revision);
  expect(done[1]).toBe(done[0] + 1);
  await expect(saveStatus).toHaveText("Draft saved");
  const saved = await admin.expect<{ definition: { trigger: { filter?: Array<{ value: string }> } } }>(
    "GET",
    `/api/automations/${automation.id}/draft`,
    200,
  );
  expect(saved.definition.trigger.filter?.[0]?.value).toBe(`Acme ${run}`);

  // A condition after the trigger: the client has an email.
  await node("Add a step after the trigger").click();
  await sidebar.getByRole("button", { name: /^Condition/ }).click();
  await expect(node("Step 1: Condition")).toBeVisible();
  // The menu of kinds is gone: focus is on the new step's first field, not the page.
  await expect(sidebar.getByLabel("Name (optional)")).toBeFocused();
  await sidebar.getByRole("button", { name: "Add rule" }).click();
  await page.locator("#af-condition-0-field").fill("email");
  await pick(page, "af-condition-0-operator", "is not empty");
  await expect(node(/^Step 1: Condition/)).toBeVisible();

  // Yes: a delay, then an email.
  await node("Add a step to the Yes branch of step 1").click();
  await sidebar.getByRole("button", { name: /^Delay/ }).click();
  await expect(node("Step 2: Delay")).toBeVisible();
  await node("Add a step after step 2").click();
  await sidebar.getByRole("button", { name: /^Action/ }).click();
  await expect(node("Step 3: Action")).toBeVisible();
  await pick(page, "af-action-type", "Send email");
  await expect(page.locator("#af-action-to")).toHaveValue("{{client.email}}");
  await page.locator("#af-action-subject").fill("Welcome, {{client.first_name}}");
  await page.locator("#af-action-body").fill("Hello from Atelier.");
  await expect(node("Step 3: Send email")).toBeVisible();
  await page.locator("#af-step-name").fill("Welcome mail");
  await expect(node("Step 3: Welcome mail")).toBeVisible();
  await shoot(page, "automation", "builder");

  // The delay goes: the email joins the condition's Yes branch and becomes step 2. Asked and
  // kept, focus is back on the delay; deleted, on the step that took its place (not the page).
  await node("Step 2: Delay").click();
  await page.keyboard.press("Delete");
  const confirm = page.getByRole("dialog", { name: "Delete step 2: Delay?" });
  await dialogOpened(confirm);
  await confirm.getByRole("button", { name: "Keep it" }).click();
  await expect(confirm).toBeHidden();
  await expect(node("Step 2: Delay")).toBeFocused();
  await page.keyboard.press("Delete");
  await dialogOpened(confirm);
  await expect(confirm.getByRole("radio", { name: /Delete this step only/ })).toBeChecked();
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(node("Step 2: Welcome mail")).toBeVisible();
  await expect(node("Step 2: Welcome mail")).toBeFocused();
  await expect(node(/Delay/)).toHaveCount(0);
  await expect(node("Step 3: Welcome mail")).toHaveCount(0);
  await expect(node("Add a step to the Yes branch of step 1")).toBeVisible();
  await expect(node("Add a step after step 2")).toBeVisible();

  // Published once the draft is saved.
  await expect(page.getByRole("status").filter({ hasText: "Draft saved" })).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Published as version 1")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("Version 1 is live")).toBeVisible();
  await page.getByRole("tab", { name: "Versions" }).click();
  await expect(page.getByRole("row", { name: /^1 Live/ })).toBeVisible();

  // A client arrives: the run goes through the condition and sends the email.
  await admin.expect("POST", "/crm/clients", 201, {
    name: `Mira ${run}`,
    email: `mira.${run}@example.com`,
    company: `Acme ${run}`,
    consent_email: true,
  });
  await page.getByRole("tab", { name: /Runs/ }).click();
  const row = page.locator(".af-run-row").first();
  await expect(row).toContainText("Finished", { timeout: 60_000 });
  await row.click();
  // The run in words: steps by their canvas titles, the branch taken, labelled fields.
  const steps = page.getByTestId("run-step");
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText("Step 1 · Condition");
  await expect(steps.nth(0)).toContainText("Took the Yes branch");
  await expect(steps.nth(0).getByRole("row", { name: "Rule email is not empty" })).toBeVisible();
  await expect(steps.nth(1)).toContainText("Step 2 · Welcome mail");
  await expect(steps.nth(1)).toContainText("Send email");
  await expect(steps.nth(1)).toContainText("Done");
  await expect(
    steps
      .nth(1)
      .getByRole("row", { name: `To mira.${run}@example.com` })
      .first(),
  ).toBeVisible();
  await expect(steps.nth(1).getByRole("row", { name: `Subject Welcome, Mira` })).toBeVisible();
  const drawer = page.locator(".ant-drawer-content");
  for (const raw of ["condition-1", "action-1", "send_email", '"branch"', "{"])
    await expect(drawer).not.toContainText(raw);
  await shoot(page, "automation", "run");
  // The JSON is one toggle away.
  const showJson = steps.nth(0).getByRole("button", { name: "Show JSON" });
  await showJson.click();
  await expect(steps.nth(0).locator("pre")).toContainText('"branch": "yes"');
  await expect(steps.nth(0).getByRole("button", { name: "Hide JSON" })).toHaveAttribute(
    "aria-expanded",
    "true",
  );

  // Closed, the drawer hands focus back to the run's row (its Open button).
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: /^Open the run of/ }).first()).toBeFocused();

  // The list names the trigger by its label, not its key.
  await navigateInApp(page, "/manage/automation/automations");
  const listed = page.getByRole("row", { name: new RegExp(`Welcome ${run}`) });
  await expect(listed).toContainText("Client created", { timeout: 30_000 });
  await expect(listed).not.toContainText("client-created");
});
