/**
 * SMS from a client's page (issue 16, spec §3 `smsModal`) with no SMS provider configured (the
 * default): the dialog counts characters and parts as the client gets the text (GSM-7 or
 * Unicode), starts from a template, inserts merge fields, sends; the SMS lands on the timeline
 * and waits in the SMS outbox. A client who has not agreed to SMS cannot be texted.
 */
import { expect, test } from "@playwright/test";
import { apiSession, choose, insertMergeField, signIn } from "./helpers";
import { shoot } from "./shots";

// Several screens and a lazily loaded dialog: past the default cap on a busy machine.
test.describe.configure({ timeout: 480_000 });

test("send an SMS from a client", async ({ page, request }) => {
  const admin = await apiSession(request);
  const stamp = Date.now().toString().slice(-7);
  const phone = `+9198${stamp}1`;
  const client = await admin.expect<{ id: string }>("POST", "/crm/clients", 201, {
    name: "Asha Rao",
    phone,
    company: "Rao Textiles",
    consent_sms: true,
  });
  const quiet = await admin.expect<{ id: string }>("POST", "/crm/clients", 201, {
    name: "Quiet Client",
    phone: `+9198${stamp}2`,
    consent_sms: false,
  });
  const templateName = `Order ready ${stamp}`;
  await admin.expect("POST", "/crm/templates", 201, {
    name: templateName,
    channel: "sms",
    body: "Hi {{client.first_name}}, your order is ready for pickup.",
  });

  await signIn(page);

  // A client who has not agreed to SMS: the dialog says why, and Send stays off.
  await page.goto(`crm/clients/show/${quiet.id}`);
  await page.getByRole("button", { name: "SMS", exact: true }).click();
  const quietDialog = page.getByRole("dialog", { name: "SMS to Quiet Client" });
  await expect(quietDialog.getByText(/has not agreed to receive SMS/)).toBeVisible();
  await expect(quietDialog.getByRole("button", { name: "Send" })).toBeDisabled();
  await quietDialog.getByRole("button", { name: "Cancel" }).click();
  await expect(quietDialog).toBeHidden();

  await page.goto(`crm/clients/show/${client.id}`);
  await page.getByRole("button", { name: "SMS", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "SMS to Asha Rao" });
  await expect(dialog.getByText(phone)).toBeVisible();
  await expect(dialog.getByText(/No SMS provider is configured/)).toBeVisible();
  const counter = dialog.getByTestId("sms-counter");
  await expect(counter).toHaveText("0 characters · 0 segments · GSM-7");

  // Counted as the client gets it: the merge field filled, the emoji making it Unicode.
  const text = dialog.getByLabel("Message", { exact: true });
  await text.fill("Hi {{client.first_name}} 👋");
  await expect(counter).toHaveText("9 characters · 1 segment · Unicode");
  await expect(dialog.getByRole("region", { name: "As the client gets it" })).toContainText("Hi Asha 👋");
  await text.fill("x".repeat(161));
  await expect(counter).toHaveText("161 characters · 2 segments · GSM-7");

  // From a template, then a merge field inserted where the cursor is (the end).
  await choose(page, "Template", templateName);
  await expect(text).toHaveValue("Hi {{client.first_name}}, your order is ready for pickup.");
  await text.press("End");
  await text.pressSequentially(" From ");
  await insertMergeField(
    page,
    dialog.getByRole("button", { name: "Insert a merge field" }),
    /Company \{\{client\.company\}\}/,
    text,
    "Hi {{client.first_name}}, your order is ready for pickup. From {{client.company}}",
  );
  // The focus is back in the text, after the field: what is typed next follows it.
  await page.keyboard.type(" team.");
  await expect(text).toHaveValue(
    "Hi {{client.first_name}}, your order is ready for pickup. From {{client.company}} team.",
  );
  const sent = "Hi Asha, your order is ready for pickup. From Rao Textiles team.";
  await expect(counter).toHaveText(`${sent.length} characters · 1 segment · GSM-7`);
  await shoot(page, "crm-sms", "sms-dialog");

  await dialog.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("SMS kept in the SMS outbox (no SMS provider is configured)")).toBeVisible();
  await expect(dialog).toBeHidden();
  const timeline = page.getByRole("region", { name: "Timeline" });
  await expect(timeline.getByText(`SMS to ${phone} kept in the SMS outbox`)).toBeVisible();
  await expect(timeline.getByText(sent)).toBeVisible();
  // Its status in words, as the outboxes say it, not the stored "stored" (issue 27).
  await expect(timeline.getByText("Stored in the outbox")).toBeVisible();
  await expect(timeline.getByText("stored", { exact: true })).toHaveCount(0);
  await shoot(page, "crm-sms", "timeline");

  // The SMS outbox, from the CRM's menu.
  await page.getByRole("link", { name: "SMS outbox" }).first().click();
  await expect(page).toHaveURL(/\/crm\/sms-outbox/);
  const row = page.getByRole("row").filter({ hasText: phone });
  // The screen's code loads on first use: a busy machine takes its time.
  await expect(row).toContainText("Asha Rao", { timeout: 60_000 });
  await expect(row).toContainText("Stored in the outbox");
  await row.getByRole("button", { name: "Open" }).click();
  const drawer = page.getByRole("dialog", { name: `SMS to ${phone}` });
  await expect(drawer.getByLabel("SMS text")).toHaveText(sent);
  await expect(drawer).toContainText("1 part, GSM-7");
  await shoot(page, "crm-sms", "sms-outbox");
});
