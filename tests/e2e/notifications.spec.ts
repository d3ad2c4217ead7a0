/**
 * The notification centre in Chromium (issue 16): the header's bell counts a user's unread
 * notifications and follows new ones live; its panel lists them, opens one (marked read, its
 * link followed), marks all read, and says when there are none; My account chooses mail per
 * kind, and a kind switched on is mailed.
 *
 * The first two start the app in this process (in-process-server.ts) and call
 * `ctx.notifications.notify` as a module does (there are no test-only routes). The last one is
 * a real event on the suite's server (issue 27): a form answered on its public route arrives live
 * in its creator's open bell, and its link opens the form's answers.
 */
import { expect, type Page, test } from "@playwright/test";
import { defaultSettings } from "../../schemas/form-definition";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./env";
import { api, apiSession, openSignedIn } from "./helpers";
import { type InProcessServer, startInProcessServer } from "./in-process-server";
import { shoot } from "./shots";

test.describe.configure({ mode: "serial" });
// The server runs in this worker, beside the test: each step takes a little longer.
test.slow();

let server: InProcessServer;
let adminId: string;

test.beforeAll(async () => {
  // Migrating a fresh database and starting the app, on a machine that may be busy.
  test.setTimeout(240_000);
  server = await startInProcessServer();
  const admin = await server.ctx.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", ADMIN_EMAIL)
    .executeTakeFirstOrThrow();
  adminId = admin.id;
});
test.afterAll(async () => {
  await server?.close();
});

/** As a CRM module would: in a transaction of its own. */
const notify = (
  title: string,
  extra: { body?: string; link?: string; kind?: "crm.reply" | "crm.assigned" } = {},
) =>
  server.ctx.db.transaction().execute((trx) =>
    server.ctx.notifications.notify(trx, {
      userIds: [adminId],
      kind: extra.kind ?? "crm.assigned",
      title,
      body: extra.body,
      link: extra.link,
    }),
  );

const bell = (page: Page) => page.getByTestId("notification-bell");
const panel = (page: Page) => page.getByRole("dialog", { name: "Notifications" });

async function signIn(page: Page) {
  await page.goto(`${server.origin}/manage/login`);
  await page.getByLabel("Email", { exact: true }).fill(ADMIN_EMAIL);
  await page.getByLabel("Password", { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).not.toHaveURL(/\/login(\?|$)/);
  // The first screen behind sign-in loads the app's code cold: a busy machine takes a while.
  await bell(page).waitFor({ timeout: 60_000 });
}

test("the bell counts unread notifications live, and its panel opens, reads and clears them", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await expect(bell(page)).toHaveAccessibleName("Notifications");

  await bell(page).click();
  await expect(panel(page).getByText("No notifications")).toBeVisible();
  await expect(panel(page).getByRole("button", { name: "Mark all as read" })).toBeDisabled();
  await page.keyboard.press("Escape");
  await expect(panel(page)).toBeHidden();
  await expect(bell(page)).toBeFocused();

  // Sent while the page is open: the badge follows without a reload.
  await notify("Carla Client was assigned to you", { body: "By Admin, from the web form", link: "/account" });
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
  await notify("Dan replied: Thursday works", { kind: "crm.reply", body: "Thanks, Thursday at 10 is fine." });
  await notify("Opportunity Big Deal is yours");
  await expect(bell(page)).toHaveAccessibleName("Notifications, 3 unread");
  await expect(bell(page)).toContainText("3");

  await bell(page).click();
  const items = panel(page).getByRole("listitem");
  await expect(items).toHaveCount(3);
  await expect(items.first()).toContainText("Opportunity Big Deal is yours");
  await expect(items.nth(1)).toContainText("Thanks, Thursday at 10 is fine.");
  await expect(items.nth(2)).toContainText("Unread: Carla Client was assigned to you");
  await shoot(page, "notifications", "panel");

  // A new one while the panel is open shows at the top.
  await notify("Task due: call Carla");
  await expect(items).toHaveCount(4);
  await expect(items.first()).toContainText("Task due: call Carla");

  // Opening one marks it read and follows its link; the panel closes.
  await panel(page)
    .getByRole("button", { name: /^Unread: Carla Client was assigned to you/ })
    .click();
  await expect(page).toHaveURL(/\/manage\/account$/);
  await expect(panel(page)).toBeHidden();
  await expect(bell(page)).toHaveAccessibleName("Notifications, 3 unread");

  await bell(page).click();
  await expect(items.nth(3)).not.toContainText("Unread:");
  await panel(page).getByRole("button", { name: "Mark all as read" }).click();
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  await expect(panel(page).getByText("Unread:")).toHaveCount(0);

  // Removed one by one, down to the empty state.
  await panel(page).getByRole("button", { name: 'Remove "Task due: call Carla"' }).click();
  await expect(items).toHaveCount(3);

  // A click elsewhere closes the panel.
  await page.getByText("Enter your current password").click();
  await expect(panel(page)).toBeHidden();
});

test("My account chooses mail per kind, and a kind switched on is mailed", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await bell(page).click();
  await panel(page).getByRole("button", { name: "Mail settings" }).click();
  await expect(page).toHaveURL(/\/manage\/account#notifications$/);
  const settings = page.locator("#notifications");
  const replies = settings.getByRole("switch", { name: "Replies" });
  await expect(replies).not.toBeChecked();
  await replies.click();
  await expect(replies).toBeChecked();
  await shoot(page, "notifications", "account-mail-settings");

  // Kept on the server: after a reload too.
  await page.reload();
  await bell(page).waitFor({ timeout: 60_000 });
  await expect(page.locator("#notifications").getByRole("switch", { name: "Replies" })).toBeChecked();

  const sent = await notify("Erin replied: yes please", { kind: "crm.reply", body: "Send the quote." });
  expect(sent.mailed).toBe(1);
  const quiet = await notify("Assigned, bell only");
  expect(quiet.mailed).toBe(0);
  const mails = await server.ctx.db
    .selectFrom("mail_outbox")
    .select(["to_address", "subject", "text_body"])
    .where("subject", "in", ["Erin replied: yes please", "Assigned, bell only"])
    .execute();
  expect(mails).toEqual([
    {
      to_address: ADMIN_EMAIL,
      subject: "Erin replied: yes please",
      text_body: expect.stringContaining("Send the quote."),
    },
  ]);
});

test("a form answered arrives live in its creator's bell, and its link opens the answers", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const admin = await apiSession(request);
  const slug = `notify-${Date.now().toString(36)}`;
  const name = `Callback ${slug}`;
  const form = await admin.expect<{ id: string }>("POST", "/forms/forms", 201, { name, slug });
  const { revision } = await admin.expect<{ revision: number }>("GET", `/forms/forms/${form.id}/draft`, 200);
  const definition = {
    fields: [
      { id: "name", kind: "text", label: "Full name", required: true, validation: { maxLength: 80 } },
      { id: "phone", kind: "text", label: "Phone", validation: { maxLength: 30 } },
    ],
    settings: defaultSettings(),
  };
  await admin.expect("PUT", `/forms/forms/${form.id}/draft`, 200, { definition, revision });
  await admin.expect("POST", `/forms/forms/${form.id}/publish`, 200);

  await openSignedIn(page, "");
  await bell(page).waitFor({ timeout: 60_000 });
  await bell(page).click();
  // Answered while the panel is open: it shows at the top without a reload.
  const sent = await request.post(api(`/forms/f/${slug}/submissions`), {
    data: { answers: { name: "Nora Patel", phone: "+91 98765 43210" } },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const notice = panel(page).getByRole("button", { name: new RegExp(`^Unread: New answer to "${name}"`) });
  await expect(notice).toBeVisible({ timeout: 20_000 });
  await expect(panel(page).getByRole("listitem").first()).toContainText(
    "Full name: Nora Patel · Phone: +91 98765 43210",
  );
  await shoot(page, "notifications", "form-answer");
  await notice.click();
  await expect(page).toHaveURL(new RegExp(`/manage/forms/forms/show/${form.id}\\?tab=submissions$`));
  await expect(page.getByRole("tab", { name: "Submissions", selected: true })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Nora Patel" })).toBeVisible({ timeout: 20_000 });
});
