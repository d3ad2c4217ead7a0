/**
 * Email from a client's page (issue 16): the dialog opened from the header, a template chosen,
 * a merge field inserted into the subject from the menu, the body written in the rich-text
 * editor, the preview filled with the client's values, a file attached from the asset manager,
 * an unknown merge field refused under its field, then Ctrl+Enter sends: "Sent", the timeline
 * and the conversation list show it, and the mail outbox holds it with its file. The header's
 * Edit opens the client's form.
 */
import { expect, test } from "@playwright/test";
import { E2E_ORIGIN } from "./env";
import { apiSession, choose, dialogOpened, insertMergeField, openSignedIn, waitForMail } from "./helpers";
import { shoot } from "./shots";

test.describe.configure({ timeout: 180_000 });

const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

test("send an email from a client", async ({ page, request }) => {
  const admin = await apiSession(request);
  const stamp = Date.now().toString(36);
  const email = `meera.${stamp}@example.com`;
  const client = await admin.expect<{ id: string }>("POST", "/crm/clients", 201, {
    name: "Meera Iyer",
    email,
    company: "Iyer Textiles",
    consent_email: true,
  });
  await admin.expect("POST", "/crm/templates", 201, {
    name: `Welcome ${stamp}`,
    channel: "email",
    subject: "Welcome aboard",
    body: "<p>Dear {{client.first_name}}, thank you for choosing us.</p>",
  });
  const upload = await admin.send("POST", "/dam/assets", {
    multipart: { file: { name: `price-list-${stamp}.pdf`, mimeType: "application/pdf", buffer: PDF } },
  });
  expect(upload.status(), await upload.text()).toBe(201);

  await page.setViewportSize({ width: 1440, height: 900 });
  await openSignedIn(page, `crm/clients/show/${client.id}`);
  await page.getByRole("button", { name: "Email", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Email Meera Iyer" });
  await expect(dialog.getByLabel("To", { exact: true })).toHaveValue(`Meera Iyer <${email}>`);

  // A template fills subject and body; the subject then gets the company from the menu.
  await choose(page, "Template", `Welcome ${stamp}`);
  await expect(dialog.getByLabel("Subject", { exact: true })).toHaveValue("Welcome aboard");
  const body = dialog.getByRole("textbox", { name: "Message" });
  await expect(body).toContainText("Dear {{client.first_name}}");
  await dialog.getByLabel("Subject", { exact: true }).click();
  await dialog.getByLabel("Subject", { exact: true }).press("End");
  await dialog.getByLabel("Subject", { exact: true }).pressSequentially(", ");
  await insertMergeField(
    page,
    dialog.getByRole("button", { name: "Insert field" }),
    /Company \{\{client\.company\}\}/,
    dialog.getByLabel("Subject", { exact: true }),
    "Welcome aboard, {{client.company}}",
  );

  // A typo in a merge field is refused under the message, nothing sent.
  await body.click();
  await body.press("ControlOrMeta+End");
  await body.pressSequentially(" Regards, {{user.nmae}}");
  await dialog.getByRole("button", { name: "Send" }).click();
  await expect(dialog.getByText("Body has an unknown merge field: {{user.nmae}}")).toBeVisible();
  for (let i = 0; i < "{{user.nmae}}".length; i++) await body.press("Backspace");
  await insertMergeField(
    page,
    dialog.getByRole("button", { name: "Insert field" }),
    /Your name \{\{user\.name\}\}/,
    body,
    "Regards, {{user.name}}",
    { text: true },
  );
  // The message has the focus back at the caret, after the field: typing goes on there.
  await page.keyboard.type(" and team");
  await expect(body).toContainText("Regards, {{user.name}} and team");

  // The preview reads as Meera will read it.
  await dialog.getByRole("button", { name: "Preview for Meera Iyer" }).click();
  const preview = dialog.getByRole("region", { name: "Preview" });
  await expect(preview).toContainText("Welcome aboard, Iyer Textiles");
  await expect(preview).toContainText("Dear Meera, thank you for choosing us. Regards, Admin User and team");

  // A file from the asset manager, found by its name (the assets other tests uploaded stay out of
  // the grid, so nothing moves under the pointer while thumbnails load), then double-clicked.
  const file = `price-list-${stamp}.pdf`;
  await dialog.getByRole("button", { name: "Attach from assets" }).click();
  const picker = page.getByRole("dialog", { name: "Choose assets from assets" });
  await dialogOpened(picker);
  await picker.getByLabel("Search assets").fill(file);
  await picker.getByLabel("Search assets").press("Enter");
  const choices = picker.getByRole("listbox", { name: "assets to choose from" });
  await expect(choices.getByRole("option")).toHaveCount(1, { timeout: 30_000 });
  // A double-click that still goes astray on a busy machine is tried again until the picker
  // closes with the file taken.
  await expect(async () => {
    if (await picker.isVisible())
      await choices.getByRole("option", { name: file }).dblclick({ timeout: 5_000 });
    await expect(picker).toBeHidden({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(dialog.getByRole("list", { name: "Attachments" })).toContainText(file);
  await shoot(page, "crm-email", "compose");

  await body.press("ControlOrMeta+Enter");
  await expect(page.getByText("Sent", { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  // The page shows it: the timeline entry and the conversation.
  const timeline = page.getByRole("region", { name: "Timeline" });
  await expect(
    timeline.getByRole("strong").filter({ hasText: "Welcome aboard, Iyer Textiles" }),
  ).toBeVisible();
  await expect(timeline.getByText("Email sent", { exact: true })).toBeVisible();
  const conversations = page.getByRole("list", { name: "Email conversations" });
  const thread = conversations.getByText("Welcome aboard, Iyer Textiles", { exact: true });
  await expect(thread).toBeVisible();
  await thread.click();
  await expect(conversations.getByText("Stored in the outbox")).toBeVisible();
  await shoot(page, "crm-email", "sent");

  // Meera opens it (issue 27): her mail program fetches the mail's tracking pixel, and the open
  // is on the timeline at once, and counted beside the mail.
  const html = (await waitForMail(admin, email, /^Welcome aboard, Iyer Textiles$/)).html ?? "";
  const pixel = /\/public\/mail\/[0-9a-f-]+\/open\.gif\?s=[\w-]+/.exec(html)?.[0];
  expect(pixel, html || "no HTML part").toBeTruthy();
  const fetched = await request.get(`${E2E_ORIGIN}${pixel}`);
  expect(fetched.headers()["content-type"]).toBe("image/gif");
  await expect(
    timeline.getByRole("strong").filter({ hasText: "Opened “Welcome aboard, Iyer Textiles”" }),
  ).toBeVisible();
  await expect(timeline.getByText("Email opened", { exact: true })).toBeVisible();
  await expect(conversations.getByText("Opened once", { exact: true })).toBeVisible();
  await shoot(page, "crm-email", "opened");

  const mail = await waitForMail(admin, email, /^Welcome aboard, Iyer Textiles$/);
  expect(mail.text).toContain("Dear Meera, thank you for choosing us. Regards, Admin User and team");
  expect(mail.attachments).toEqual([file]);
  expect(mail.replyTo).toBe("admin@example.com");

  // Edit in the page's header opens the client's form (it once led to ".../show/edit/<id>").
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/manage/crm/clients/edit/${client.id}$`));
  // The form's code loads on first use: slow on a busy machine.
  await expect(page.getByRole("heading", { name: "Edit Meera Iyer" })).toBeVisible({ timeout: 60_000 });
});
