/**
 * Multi-page forms, partial answers and the funnel (issue 29), from the admin's builder to the
 * respondent and back: a three-page form whose second page is skipped by a rule; the builder
 * shows its page breaks; the respondent goes page by page with Next (checked per page) and
 * Back, the skip rule taking them past a page; they leave and come back to the page they left
 * with their answers; the admin sees the partial answer, then, once sent, sees it gone and the
 * funnel's numbers in Insights.
 */
import { expect, test } from "@playwright/test";
import { apiSession, openSignedIn } from "./helpers";
import { shoot } from "./shots";

test.describe.configure({ timeout: 180_000 });

const SPEC = "forms-pages";

const definition = () => ({
  fields: [
    { id: "name", kind: "text", label: "Full name", required: true, validation: { maxLength: 80 } },
    { id: "email", kind: "email", label: "Work email", required: true, validation: { maxLength: 320 } },
    { id: "plan", kind: "radio", label: "Plan", options: ["Free", "Pro"], required: true, validation: {} },
    {
      id: "company_page",
      kind: "page",
      label: "Your company",
      help: "Tell us who you work for.",
      validation: {},
      logic: [
        { action: "hide", match: "all", conditions: [{ field: "plan", operator: "eq", value: "Free" }] },
      ],
    },
    { id: "company", kind: "text", label: "Company", required: true, validation: { maxLength: 100 } },
    { id: "last_page", kind: "page", label: "Anything else", validation: {} },
    { id: "notes", kind: "longtext", label: "Notes", validation: { maxLength: 500 } },
  ],
  settings: {
    mail: {
      isEmail: false,
      Destination: [],
      sendCc: [],
      sendBcc: [],
      subject: "New answer",
      body: "{{answers}}",
      replyToField: null,
      confirmation: { enabled: false, subject: "Thanks", body: "Thanks" },
    },
    utm: {
      trackingId: "",
      Step: 1,
      defaultParameters: ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"].map(
        (name, i) => ({ id: i + 1, name, type: 0 }),
      ),
      customParameters: [],
    },
    submit: { buttonLabel: "Send", successMessage: "Thanks, all done." },
    firstTouch: "off",
    resume: { days: 7 },
  },
});

test("a three-page form with a skip rule: page by page, left and resumed, sent, and counted", async ({
  page,
  request,
}) => {
  const admin = await apiSession(request);
  const slug = `pages-${Date.now().toString(36)}`;
  const form = await admin.expect<{ id: string }>("POST", "/forms/forms", 201, { name: "Onboarding", slug });
  const { revision } = await admin.expect<{ revision: number }>("GET", `/forms/forms/${form.id}/draft`, 200);
  await admin.expect("PUT", `/forms/forms/${form.id}/draft`, 200, { definition: definition(), revision });
  await admin.expect("POST", `/forms/forms/${form.id}/publish`, 200);

  // The builder shows the page breaks as bands, each with the page it starts.
  await openSignedIn(page, `/manage/forms/forms/show/${form.id}`);
  const breakCard = page.locator('[data-field-id="company_page"]');
  await expect(breakCard).toContainText("page 2 starts here");
  await expect(breakCard).toContainText("Skip rule");
  await breakCard.getByRole("button", { name: "Edit Your company" }).click();
  await expect(page.getByLabel("Page title")).toHaveValue("Your company");
  await expect(page.getByRole("group", { name: "Rule 1" })).toBeVisible();
  await shoot(page, SPEC, "builder");

  // The respondent, from a campaign link.
  await page.goto(`/forms/f/${slug}?utm_source=ads`);
  await expect(page.getByText("Page 1 of 3")).toBeVisible();
  await expect(page.getByRole("button", { name: "Back" })).toBeHidden();
  await page.getByRole("button", { name: "Next" }).click();
  // Only this page's fields are checked, and the visitor stays on it.
  await expect(page.getByText("Full name is required")).toBeVisible();
  await expect(page.getByText("Company is required")).toBeHidden();
  await page.getByLabel("Full name").fill("Grace Hopper");
  await page.getByLabel("Work email").fill("grace@example.com");
  await page.getByLabel("Pro").check();
  await shoot(page, SPEC, "page-1");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("heading", { name: "Your company" })).toBeVisible();
  await expect(page.getByText("Page 2 of 3")).toBeVisible();
  await expect(page.getByLabel("Full name")).toBeHidden();
  await shoot(page, SPEC, "page-2");
  await page.getByRole("button", { name: "Back" }).click();
  await expect(page.getByLabel("Full name")).toHaveValue("Grace Hopper");
  // The Free plan skips the company page.
  await page.getByLabel("Free").check();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("heading", { name: "Anything else" })).toBeVisible();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await page.getByLabel("Notes").fill("Call me after lunch");

  // Kept as they went: the admin sees the partial answer.
  await expect
    .poll(
      async () =>
        (
          await admin.expect<{ total: number; data: Array<{ page: number }> }>(
            "GET",
            `/forms/forms/${form.id}/partials`,
            200,
          )
        ).data[0]?.page,
      { timeout: 20_000 },
    )
    .toBe(3);

  // They leave (the notes are kept as the page goes) and come back: the same page, their answers.
  await page.goto("about:blank");
  await expect
    .poll(
      async () =>
        (
          await admin.expect<{ data: Array<{ answers: Record<string, unknown> }> }>(
            "GET",
            `/forms/forms/${form.id}/partials`,
            200,
          )
        ).data[0]?.answers.notes,
      { timeout: 20_000 },
    )
    .toBe("Call me after lunch");
  await page.goto(`/forms/f/${slug}?utm_source=ads`);
  await expect(page.getByRole("heading", { name: "Anything else" })).toBeVisible();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect(page.getByLabel("Notes")).toHaveValue("Call me after lunch");
  await shoot(page, SPEC, "resumed");

  await openSignedIn(page, `/manage/forms/forms/show/${form.id}?tab=partials`);
  const partialRow = page.getByTestId("partials-table").getByRole("row").filter({ hasText: "Grace Hopper" });
  await expect(partialRow).toBeVisible({ timeout: 20_000 });
  await expect(partialRow).toContainText("3 of 3");
  await expect(partialRow).toContainText("ads");
  await shoot(page, SPEC, "partials");

  // Back to the form: sent from its last page.
  await page.goto(`/forms/f/${slug}?utm_source=ads`);
  await expect(page.getByRole("heading", { name: "Anything else" })).toBeVisible();
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("Thanks, all done.")).toBeVisible();

  await openSignedIn(page, `/manage/forms/forms/show/${form.id}?tab=partials`);
  await expect(page.getByText("No partial answers")).toBeVisible({ timeout: 20_000 });

  // The views are written every few seconds; the Insights tab shows them once they are.
  await expect
    .poll(
      async () =>
        (
          await admin.expect<{ steps: Array<{ key: string; count: number }> }>(
            "GET",
            `/forms/forms/${form.id}/funnel`,
            200,
          )
        ).steps.find((s) => s.key === "views")?.count ?? 0,
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0);
  await page.getByRole("tab", { name: "Insights" }).click();
  const chart = page.getByTestId("funnel-chart");
  await expect(chart).toBeVisible({ timeout: 20_000 });
  await expect(chart.locator('[data-step="starts"]')).toContainText("1");
  await expect(chart.locator('[data-step="page-3"]')).toContainText("Page 3: Anything else");
  await expect(chart.locator('[data-step="page-3"]')).toContainText("1");
  await expect(chart.locator('[data-step="completions"]')).toContainText("1");
  await chart.scrollIntoViewIfNeeded();
  await shoot(page, SPEC, "funnel");
});
