/**
 * Test runs (issue 30): a person opens a draft, runs Test with a real client, sees each step's
 * status on the canvas and a step's inputs and outputs in the sidebar, tests one step again, and
 * nothing was sent (the outbox is as it was) or kept (the task the flow makes does not exist,
 * the client has no new tag).
 */
import { expect, test } from "@playwright/test";
import { apiSession, openSignedIn } from "./helpers";
import { shoot } from "./shots";

test.describe.configure({ timeout: 240_000 });

const SPEC = "automation-test-run";

test("test a draft with a real client: statuses on the canvas, a step's outputs, nothing sent or kept", async ({
  page,
  request,
}) => {
  const run = Date.now().toString(36);
  const admin = await apiSession(request);
  const client = await admin.expect<{ id: string }>("POST", "/crm/clients", 201, {
    name: `Mira Test ${run}`,
    email: `mira.${run}@example.com`,
    consent_email: true,
  });
  const automation = await admin.expect<{ id: string }>("POST", "/api/automations", 201, {
    name: `Onboarding ${run}`,
  });
  const taskTitle = `Call Mira ${run}`;
  await admin.expect("PUT", `/api/automations/${automation.id}/draft`, 200, {
    definition: {
      trigger: { kind: "client-created" },
      steps: [
        {
          id: "has-email",
          kind: "condition",
          condition: { operator: "and", value: [{ field: "email", operator: "contains", value: "@" }] },
          branches: {
            yes: [
              {
                id: "welcome",
                name: "Welcome mail",
                kind: "action",
                type: "send_email",
                inputs: {
                  to: "{{client.email}}",
                  subject: "Welcome {{client.first_name}}",
                  body: "Glad you are here.",
                },
              },
              {
                id: "call",
                name: "Call task",
                kind: "action",
                type: "create_record",
                inputs: { resource: "task", fields: { title: `Call Mira ${run}` } },
              },
              { id: "pause", kind: "delay", mode: "for", amount: 2, unit: "days" },
              { id: "tag", kind: "action", type: "add_tag", inputs: { tag: "onboarded" } },
            ],
            no: [],
          },
        },
      ],
    },
  });
  const outboxTotal = async () =>
    (await admin.expect<{ total: number }>("GET", "/api/outbox?page=1&pageSize=1", 200)).total;
  const outboxBefore = await outboxTotal();

  await openSignedIn(page, `automation/automations/show/${automation.id}`);
  const canvas = page.getByTestId("automation-canvas");
  await expect(canvas.getByRole("button", { name: "Trigger: Client created", exact: true })).toBeVisible({
    timeout: 60_000,
  });

  // Test, with the client found by a search.
  await page.getByRole("button", { name: "Test", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Test the draft" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("radio", { name: "A real client" })).toBeChecked();
  const picker = dialog.locator("#af-test-record");
  await picker.click();
  await picker.fill(`Mira Test ${run}`);
  await page
    .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")
    .filter({ hasText: `Mira Test ${run}` })
    .click();
  await shoot(page, SPEC, "sample-picker");
  await dialog.getByRole("button", { name: "Run test" }).click();
  await expect(dialog).toBeHidden();

  // Each step's status on the canvas (in its accessible name too: reachable by keyboard).
  const node = (name: RegExp) => canvas.getByRole("button", { name });
  await expect(node(/^Trigger: Client created\. Test: Passed$/)).toBeVisible();
  await expect(node(/^Step 1: .*Test: Took Yes$/)).toBeVisible();
  await expect(node(/^Step 2: Welcome mail\. Test: Passed$/)).toBeVisible();
  await expect(node(/^Step 3: Call task\. Test: Passed$/)).toBeVisible();
  await expect(node(/^Step 4: .*Test: Skipped$/)).toBeVisible();
  await expect(node(/^Step 5: .*Test: Passed$/)).toBeVisible();
  const summary = page.locator(".af-test-summary");
  await expect(summary).toContainText("Test run passed: 5 steps ran on the draft.");
  await expect(summary).toContainText(
    "Nothing was sent (a real run would send 1 email) and nothing was kept.",
  );

  // The mail's step: what it would send, with the variables filled in.
  await node(/^Step 2: Welcome mail/).focus();
  await page.keyboard.press("Enter");
  const result = page.getByTestId("test-step-result");
  await expect(result).toContainText("Passed");
  await expect(result).toContainText(`mira.${run}@example.com`);
  await expect(result).toContainText("Welcome Mira");
  await expect(result).toContainText("Not sent: below is the email a real run would send");
  await shoot(page, SPEC, "step-result");

  // The delay: skipped with a note.
  await node(/^Step 4: /).click();
  await expect(result).toContainText("Would wait 2 days");

  // One step again, with the earlier steps' outputs kept.
  await node(/^Step 5: /).click();
  await result.getByRole("button", { name: "Test this step" }).click();
  await expect(result).toContainText("onboarded");
  await expect(node(/^Step 5: .*Test: Passed$/)).toBeVisible();

  // Nothing sent, nothing kept.
  expect(await outboxTotal()).toBe(outboxBefore);
  const tasks = await admin.expect<{ total: number }>(
    "GET",
    `/crm/tasks?filters=${encodeURIComponent(JSON.stringify([{ field: "title", operator: "eq", value: taskTitle }]))}`,
    200,
  );
  expect(tasks.total).toBe(0);
  const reread = await admin.expect<{ tags: string[] | null }>("GET", `/crm/clients/${client.id}`, 200);
  expect(reread.tags ?? []).not.toContain("onboarded");

  // A step that cannot run: the test stops there, selects it and says what to fix.
  const broken = await admin.expect<{ id: string }>("POST", "/api/automations", 201, {
    name: `Broken ${run}`,
  });
  await admin.expect("PUT", `/api/automations/${broken.id}/draft`, 200, {
    definition: {
      trigger: { kind: "client-created" },
      steps: [
        {
          id: "note",
          name: "Note to the office",
          kind: "action",
          type: "send_email",
          inputs: { to: "{{trigger.office_email}}", subject: "New client", body: "{{trigger.name}} joined" },
        },
      ],
    },
  });
  await openSignedIn(page, `automation/automations/show/${broken.id}`);
  await expect(canvas.getByRole("button", { name: "Trigger: Client created", exact: true })).toBeVisible({
    timeout: 60_000,
  });
  await page.getByRole("button", { name: "Test", exact: true }).click();
  await expect(dialog).toBeVisible();
  await picker.click();
  await picker.fill(`Mira Test ${run}`);
  await page
    .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")
    .filter({ hasText: `Mira Test ${run}` })
    .click();
  await dialog.getByRole("button", { name: "Run test" }).click();
  await expect(node(/^Step 1: Note to the office\. Test: Failed$/)).toBeVisible();
  await expect(summary).toContainText("Test run stopped at");
  await expect(result).toContainText("The email has no address once its variables are filled");
  await expect(result).toContainText("What to fix: Set To to an email address");
  await shoot(page, SPEC, "failed-step");
});
