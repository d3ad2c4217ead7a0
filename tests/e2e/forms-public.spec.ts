/**
 * A published form from the respondent's side to the admin's (issue 15): the public page opened
 * from an address with `utm_*` parameters, a field shown by the logic, an error said under its
 * field, the answer sent; then the form's Submissions tab lists it with its utm_source, and its
 * drawer shows the answers and the tracking. The plain page without JavaScript posts too.
 */
import { expect, test } from "@playwright/test";
import { apiSession, openSignedIn, waitForMail } from "./helpers";
import { shoot } from "./shots";

test.describe.configure({ timeout: 180_000 });

const definition = (slug: string) => ({
  fields: [
    { id: "name", kind: "text", label: "Full name", required: true, validation: { maxLength: 80 } },
    { id: "email", kind: "email", label: "Work email", required: true, validation: { maxLength: 320 } },
    { id: "plan", kind: "radio", label: "Plan", options: ["Free", "Pro"], validation: {} },
    {
      id: "company",
      kind: "text",
      label: "Company",
      required: true,
      validation: { maxLength: 100 },
      logic: [
        { action: "show", match: "all", conditions: [{ field: "plan", operator: "eq", value: "Pro" }] },
      ],
    },
    { id: "start", kind: "date", label: "Start date", validation: {} },
  ],
  settings: {
    mail: {
      isEmail: true,
      Destination: [`sales+${slug}@example.com`],
      sendCc: ["team@example.com"],
      sendBcc: ["audit@example.com"],
      subject: "New lead: {{name}}",
      body: "{{answers}}",
      replyToField: "email",
      confirmation: { enabled: false, subject: "Thanks", body: "Thanks" },
    },
    utm: {
      trackingId: "T-1",
      Step: 1,
      defaultParameters: ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"].map(
        (name, i) => ({
          id: i + 1,
          name,
          type: 0,
        }),
      ),
      customParameters: [{ id: 6, name: "gclid", type: 1, defaultValue: "" }],
    },
    submit: { buttonLabel: "Send", successMessage: "Thanks, we will be in touch." },
    firstTouch: "off",
  },
});

test("a respondent answers from a campaign link, and the admin sees the answer with its parameters", async ({
  page,
  request,
}) => {
  const admin = await apiSession(request);
  const slug = `lead-${Date.now().toString(36)}`;
  const form = await admin.expect<{ id: string }>("POST", "/forms/forms", 201, { name: "Lead form", slug });
  const { revision } = await admin.expect<{ revision: number }>("GET", `/forms/forms/${form.id}/draft`, 200);
  await admin.expect("PUT", `/forms/forms/${form.id}/draft`, 200, { definition: definition(slug), revision });
  await admin.expect("POST", `/forms/forms/${form.id}/publish`, 200);

  await page.goto(`/forms/f/${slug}?utm_source=newsletter&utm_campaign=spring&gclid=abc123`);
  await expect(page.getByRole("heading", { name: "Lead form" })).toBeVisible();
  const company = page.getByLabel("Company");
  await expect(company).toBeHidden();
  await page.getByLabel("Full name").fill("Ada Lovelace");
  await page.getByLabel("Work email").fill("ada@");
  await page.getByLabel("Pro").check();
  await expect(company).toBeVisible();
  await page.getByRole("button", { name: "Send" }).click();
  // Checked in the page by the same code as on the server: nothing is sent yet.
  await expect(page.getByText("Work email must be a valid email address")).toBeVisible();
  await expect(page.getByText("Company is required")).toBeVisible();
  await page.getByLabel("Work email").fill("ada@example.com");
  await company.fill("Analytical Engines");
  await page.getByLabel("Start date").fill("5-3-2026");
  await shoot(page, "forms-public", "filled");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("Thanks, we will be in touch.")).toBeVisible();

  await openSignedIn(page, `/manage/forms/forms/show/${form.id}`);
  await page.getByRole("tab", { name: "Submissions" }).click();
  const row = page.getByRole("row").filter({ hasText: "Ada Lovelace" });
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect(row).toContainText("newsletter");
  // The UTM columns are in view at 1440 px, each with its own filter (issue 27).
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.getByRole("columnheader", { name: "UTM campaign" })).toBeInViewport();
  for (const utm of ["UTM source", "UTM medium", "UTM campaign"])
    await expect(page.getByLabel(`Filter by ${utm}`)).toBeVisible();
  await page.getByLabel("Filter by UTM campaign").fill("spring");
  await page.getByLabel("Filter by UTM campaign").press("Enter");
  await expect(row).toBeVisible();
  await shoot(page, "forms-public", "submissions");
  await row.getByText("Ada Lovelace").click();
  const drawer = page.getByRole("dialog");
  await expect(drawer).toContainText("Analytical Engines");
  await expect(drawer).toContainText("05-03-2026");
  await expect(drawer).toContainText("spring");
  await expect(drawer).toContainText("abc123");
  await shoot(page, "forms-public", "submission");

  const mail = await waitForMail(admin, `sales+${slug}@example.com`, /^New lead: Ada Lovelace$/);
  expect(mail).toMatchObject({
    cc: ["team@example.com"],
    bcc: ["audit@example.com"],
    replyTo: "ada@example.com",
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the plain page posts, says what is wrong under each field, and keeps the answers", async ({
    page,
    request,
  }) => {
    const admin = await apiSession(request);
    const slug = `plain-${Date.now().toString(36)}`;
    const form = await admin.expect<{ id: string }>("POST", "/forms/forms", 201, {
      name: "Plain form",
      slug,
    });
    const { revision } = await admin.expect<{ revision: number }>(
      "GET",
      `/forms/forms/${form.id}/draft`,
      200,
    );
    await admin.expect("PUT", `/forms/forms/${form.id}/draft`, 200, {
      definition: definition(slug),
      revision,
    });
    await admin.expect("POST", `/forms/forms/${form.id}/publish`, 200);

    await page.goto(`/forms/f/${slug}?utm_source=poster`);
    await page.getByLabel("Full name").fill("Grace Hopper");
    await page.getByLabel("Work email").fill("not-an-address");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Work email must be a valid email address")).toBeVisible();
    await expect(page.getByLabel("Full name")).toHaveValue("Grace Hopper");
    await page.getByLabel("Work email").fill("grace@example.com");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Thanks, we will be in touch.")).toBeVisible();
    const list = await admin.expect<{ data: Array<{ name: string; utm_source: string }> }>(
      "GET",
      `/forms/forms/${form.id}/submissions`,
      200,
    );
    expect(list.data).toEqual([expect.objectContaining({ name: "Grace Hopper", utm_source: "poster" })]);
  });
});
