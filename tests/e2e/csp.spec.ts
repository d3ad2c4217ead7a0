/**
 * The Content-Security-Policy the server sends is one the app satisfies (issue 10): the admin
 * app (sign in, a few screens, a form saved, a reset page) and the public catalogue viewer (a YouTube video
 * and an iframe hotspot opened) run in Chromium with the policy enforced, and any violation,
 * reported by a `securitypolicyviolation` event or a console message, fails the test.
 */
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { makeCataloguePdf } from "../fixtures/make-pdf";
import { apiSession, E2E_ORIGIN, signInWithForm } from "./helpers";
import { processedPdf, uploadPdf } from "./pdf-helpers";

interface Violation {
  directive: string;
  blocked: string;
  page: string;
}

/**
 * Collects the CSP violations of every page and frame of the context: the event from an init
 * script (run by the browser before the page's own scripts, outside the page's CSP), and the
 * console's "Refused to…" lines as a second witness.
 */
async function watchViolations(context: BrowserContext, page: Page): Promise<Violation[]> {
  const violations: Violation[] = [];
  await context.exposeBinding("__reportCspViolation", (_source, violation: Violation) => {
    violations.push(violation);
  });
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { __reportCspViolation?: (v: unknown) => void })
        .__reportCspViolation;
      report?.({ directive: event.effectiveDirective, blocked: event.blockedURI, page: location.href });
    });
  });
  page.on("console", (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to (load|execute|apply|frame|connect|evaluate|run)/i.test(text)) {
      violations.push({ directive: "console", blocked: text, page: page.url() });
    }
  });
  return violations;
}

/** The page's document answer carried a CSP (a test without one would pass for nothing). */
function expectPolicy(response: Awaited<ReturnType<Page["goto"]>>, frameAncestors: string) {
  expect(response, "the page answered").not.toBeNull();
  const csp = response?.headers()["content-security-policy"] ?? "";
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain(`frame-ancestors ${frameAncestors}`);
}

test("the admin app runs under its CSP without a violation", async ({ page, context }) => {
  const violations = await watchViolations(context, page);

  expectPolicy(await page.goto("login"), "'none'");
  await signInWithForm(page);
  await expect(page.getByTestId("user-menu")).toBeVisible();

  for (const screen of ["products/products", "products/products/create", "users", "dam"]) {
    expectPolicy(await page.goto(screen), "'none'");
    await expect(page.locator(".ant-layout-content").first()).toBeVisible();
    // The screen's data (and so its images) have arrived once no spinner is left.
    await expect(page.locator(".ant-spin-spinning")).toHaveCount(0);
  }

  // The forms validate with Ajv, which compiles schemas with `new Function`: a policy without
  // 'unsafe-eval' leaves Save doing nothing at all. A record must really be created.
  await page.goto("products/categories/create");
  await page.getByLabel("Name", { exact: true }).fill(`CSP category ${Date.now()}`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Category created")).toBeVisible();

  const reset = await page.goto("resetpassword/0123456789abcdef0123456789abcdef");
  expectPolicy(reset, "'none'");
  expect(reset?.headers()["referrer-policy"]).toBe("no-referrer");
  await expect(page.getByRole("button").first()).toBeVisible();

  expect(violations).toEqual([]);
});

test("the catalogue viewer frames YouTube and its iframe hotspots without a violation", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = await apiSession(request);
  const buffer = await makeCataloguePdf({ pages: 1, photos: false });
  const pdf = await processedPdf(admin, (await uploadPdf(admin, `csp-${Date.now()}.pdf`, buffer)).id);
  expect(pdf.pdflist_status).toBe("ready");
  await admin.expect("PATCH", `/api/pdfs/${pdf.id}`, 200, { pdfstatus: true });
  const saved = await admin.send("PUT", `/api/pdfs/${pdf.id}/pages/1/links`, {
    data: {
      revision: 0,
      links: [
        { x: 0.05, y: 0.15, w: 0.25, h: 0.08, kind: "video", target: { youtubeId: "dQw4w9WgXcQ" } },
        {
          x: 0.05,
          y: 0.35,
          w: 0.25,
          h: 0.08,
          kind: "iframe",
          target: { url: "https://embed.example.com/page" },
        },
      ],
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  // The outside world, answered locally (the e2e machine has no internet).
  await context.route(/^https:\/\/(embed\.example\.com|www\.youtube-nocookie\.com)\//, (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Outside</title><p>Outside</p>" }),
  );
  const violations = await watchViolations(context, page);

  expectPolicy(await page.goto(`${E2E_ORIGIN}/view/${pdf.slug}`), "'self'");
  await expect(page.getByRole("img", { name: "Page 1", exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Play video" }).click();
  const video = page.getByRole("dialog", { name: "Video" });
  await expect(video.frameLocator("iframe").getByText("Outside")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(video).toBeHidden();

  await page.getByRole("button", { name: "Show embedded page" }).click();
  const embedded = page.getByRole("dialog", { name: "Embedded page" });
  await expect(embedded.frameLocator("iframe").getByText("Outside")).toBeVisible();

  expect(violations).toEqual([]);
});
