/**
 * When a run fails (issue 30), in Chromium against the real server: runs of a published flow
 * fail on a step, the owner sees the notification in the bell and opens the run from it, filters
 * the run history to the failed runs, selects them and runs them again from the start after a
 * confirmation that says how many.
 */
import { expect, type Page, test } from "@playwright/test";
import { apiSession, openSignedIn } from "./helpers";
import { shoot } from "./shots";

test.describe.configure({ timeout: 240_000 });

const bell = (page: Page) => page.getByTestId("notification-bell");
const panel = (page: Page) => page.getByRole("dialog", { name: "Notifications" });

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;

test("a failed run notifies its owner, and failed runs are filtered and retried in bulk", async ({
  page,
  request,
}) => {
  const run = Date.now().toString(36);
  const admin = await apiSession(request);
  const name = `Sync leads ${run}`;
  const automation = await admin.expect<{ id: string }>("POST", "/api/automations", 201, {
    name,
    owner_id: admin.user.userID,
  });
  // Runs whose record says "Fails" call an address the server refuses (no retries): they fail there.
  await admin.expect("PUT", `/api/automations/${automation.id}/draft`, 200, {
    definition: {
      trigger: { kind: "manual" },
      steps: [
        {
          id: "check",
          kind: "condition",
          name: "Should it fail?",
          condition: { operator: "and", value: [{ field: "company", operator: "eq", value: "Fails" }] },
          branches: {
            yes: [
              {
                id: "call",
                kind: "action",
                name: "Call the CRM hook",
                type: "http_request",
                inputs: { method: "POST", url: "http://127.0.0.1:9/hook", body: "{}" },
              },
            ],
            no: [{ id: "wait", kind: "delay", mode: "for", amount: 1, unit: "minutes" }],
          },
        },
      ],
    },
  });
  await admin.expect("POST", `/api/automations/${automation.id}/publish`, 200);

  await openSignedIn(page, "automation/automations");
  await bell(page).waitFor({ timeout: 60_000 });

  const started: string[] = [];
  for (const company of ["Fails", "Fails", "Fails", "Works"]) {
    const r = await admin.expect<{ id: string }>("POST", `/api/automations/${automation.id}/run`, 201, {
      record: { company, name: `${company} ${started.length}` },
    });
    started.push(r.id);
  }
  /** The automation's failed runs, counted by the API. */
  const failedRuns = async () =>
    (
      await admin.expect<{ total: number }>(
        "GET",
        `/api/automations/${automation.id}/runs?status=failed`,
        200,
      )
    ).total;
  await expect.poll(failedRuns, { timeout: 60_000 }).toBe(3);

  // The owner's bell: the failure, named by the step, opens the run.
  await expect(bell(page)).toHaveAccessibleName(/Notifications, \d+ unread/, { timeout: 30_000 });
  await bell(page).click();
  const notice = panel(page)
    .getByRole("button", { name: new RegExp(`^Unread: ${name}: a run failed at "Call the CRM hook"`) })
    .first();
  await expect(notice).toBeVisible();
  await shoot(page, "automation-failures", "bell");
  await notice.click();
  await expect(page).toHaveURL(new RegExp(`/automation/automations/show/${automation.id}\\?run=`));
  const drawer = page.getByRole("dialog").filter({ hasText: "Call the CRM hook" });
  await expect(drawer).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();

  // The run history, filtered to the failed runs: three of the four.
  const table = page.locator(".af-runs .ant-table");
  const rows = table.locator("tbody tr.af-run-row");
  await expect(rows).toHaveCount(4);
  const status = page.locator(".af-run-filters .ant-select").first();
  await expect(async () => {
    if (!(await page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)").count()))
      await status.click();
    await page
      .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")
      .filter({ hasText: /^Failed$/ })
      .click({ timeout: 5_000 });
    await expect(status).toContainText("Failed", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: "Failed" })).toHaveCount(3);

  // All three selected (the header's box), then retried from the start after the confirmation.
  await table.locator("thead .ant-checkbox-input").check();
  await expect(page.getByText("3 failed runs selected")).toBeVisible();
  await page.getByRole("button", { name: "Retry from the start" }).click();
  const confirm = page.locator(".ant-modal-confirm");
  await expect(confirm).toContainText("Retry 3 failed runs from the start?");
  await shoot(page, "automation-failures", "confirm-bulk-retry");
  await confirm.getByRole("button", { name: "Retry 3 runs" }).click();
  await expect(page.getByText("3 runs running again")).toBeVisible();

  // Each failed run was kept, marked as retried, and a new run of each went on (and failed again).
  await expect
    .poll(async () => {
      const all = await admin.expect<{ data: Any[] }>(
        "GET",
        `/api/automations/${automation.id}/runs?pageSize=50`,
        200,
      );
      return all.data.filter((r) => r.status === "cancelled" && r.exitReason === "retried").length;
    })
    .toBe(3);
  await expect.poll(failedRuns, { timeout: 60_000 }).toBe(3);
  await expect(rows).toHaveCount(3);
  await expect(page.getByText("3 failed runs selected")).toBeHidden();
  await shoot(page, "automation-failures", "runs-filtered");

  // The failure settings are the automation's fields, on its Edit form.
  await page.getByRole("button", { name: "Edit" }).click();
  await expect(page.getByRole("checkbox", { name: "Tell the owner when a run fails" })).toBeChecked();
  await expect(page.getByText("When a run fails, start")).toBeVisible();
  await shoot(page, "automation-failures", "settings");
});
