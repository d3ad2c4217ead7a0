/**
 * Error, offline and not-found states (issue 13): a record or list that fails to load (5xx, no
 * answer, timeout) says what failed and offers Retry, which then works; a bad or unknown id is
 * "not found" with the way back and nothing to delete; offline, a screen says so (never "You
 * do not have access") and loads by itself when the connection returns; a screen whose code
 * does not arrive in time shows an error with Retry. Screenshots of each state go to .tmp/e2e-shots/states.
 */
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { type Row, seedCategory, uniqueTag } from "./catalogue-helpers";
import { apiSession, navigateInApp } from "./helpers";
import { errorToasts, failApi, loadError, shoot, signInTo } from "./states-helpers";

test.use({ viewport: { width: 1440, height: 900 } });

/** A category and a product in it, through the API. */
async function seedProduct(request: Parameters<typeof apiSession>[0]) {
  const tag = uniqueTag();
  const admin = await apiSession(request);
  const { category } = await seedCategory(admin, tag);
  const product = await admin.expect<Row>("POST", "/api/products", 201, {
    sku_code: `SKU-${tag}`,
    name: `${tag} Brass lamp`,
    price: 10,
    category_id: category.id,
  });
  return { category, product };
}

const deleteButton = (page: import("@playwright/test").Page) => page.getByRole("button", { name: /delete/i });

test("a record that fails to load says why, with Retry; Retry loads it", async ({ page, request }) => {
  const { category, product } = await seedProduct(request);
  // A server error on the show page (retried twice by the client before it is shown).
  const broken = await failApi(page, `/api/products/${product.id}`, "500");
  await signInTo(page, `/manage/products/products/show/${product.id}`);
  const failed = loadError(page, "The product could not be loaded");
  await expect(failed).toBeVisible({ timeout: 20_000 });
  await expect(failed).toContainText("The server ran into a problem (error 500)");
  await expect(deleteButton(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: /edit/i })).toHaveCount(0);
  await expect(errorToasts(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Back to products" })).toBeVisible();
  await shoot(page, "record-server-error");
  broken.heal();
  await failed.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("heading", { name: product.name })).toBeVisible();
  await expect(deleteButton(page)).toBeEnabled();
  await page.unrouteAll({ behavior: "ignoreErrors" });

  // No answer at all (connection refused) on an edit page: no empty form to type into.
  const refused = await failApi(page, `/api/categories/${category.id}`, "abort");
  await navigateInApp(page, `/manage/products/categories/edit/${category.id}`);
  const noAnswer = loadError(page, "The category could not be loaded");
  await expect(noAnswer).toBeVisible({ timeout: 20_000 });
  await expect(noAnswer).toContainText("The server did not answer");
  await expect(page.getByLabel("Name", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(deleteButton(page)).toHaveCount(0);
  await shoot(page, "record-no-answer");
  refused.heal();
  await noAnswer.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(category.name);
});

test("a read that hangs is given up on as too slow, with Retry", async ({ page, request }) => {
  const { category } = await seedProduct(request);
  await signInTo(page);
  // The read timeout, shortened so the test does not wait 30 s.
  await page.evaluate(() => {
    (window as { __ATELIER_READ_TIMEOUT_MS?: number }).__ATELIER_READ_TIMEOUT_MS = 1500;
  });
  const hanging = await failApi(page, `/api/categories/${category.id}`, "hang");
  await navigateInApp(page, `/manage/products/categories/show/${category.id}`);
  const slow = loadError(page, "The category could not be loaded");
  await expect(slow).toBeVisible({ timeout: 20_000 });
  await expect(slow).toContainText("The server took too long to answer");
  // Given up on once, not resent: a timed-out read is not retried on top of the wait.
  expect(hanging.sent()).toBe(1);
  await shoot(page, "record-timeout");
  hanging.heal();
  await slow.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("heading", { name: category.name })).toBeVisible();
});

test("a malformed or unknown id is not found, with the way back and nothing to delete", async ({ page }) => {
  await signInTo(page, "/manage/products/products/show/not-a-uuid");
  const notFound = page.getByRole("alert").filter({ hasText: "This product was not found" });
  await expect(notFound).toBeVisible();
  await expect(deleteButton(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: /edit/i })).toHaveCount(0);
  await expect(errorToasts(page)).toHaveCount(0);
  await shoot(page, "record-malformed-id");

  await navigateInApp(page, `/manage/products/products/edit/${randomUUID()}`);
  await expect(notFound).toBeVisible();
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(deleteButton(page)).toHaveCount(0);
  await expect(page.getByLabel("Name", { exact: true })).toHaveCount(0);
  await expect(errorToasts(page)).toHaveCount(0);
  await shoot(page, "record-unknown-id");
  await notFound.getByRole("button", { name: "Back to products" }).click();
  // The list is up once it has written its page into the address: a navigation before that
  // would be undone by it (Refine's syncWithLocation replaces the address as the list mounts).
  await expect(page).toHaveURL(/\/manage\/products\/products\?.*currentPage=/);

  // Users have their own edit screen: the same state there.
  await navigateInApp(page, `/manage/users/edit/${randomUUID()}`);
  const noUser = page.getByRole("alert").filter({ hasText: "This user was not found" });
  await expect(noUser).toBeVisible();
  await expect(page.getByLabel("First name", { exact: true })).toHaveCount(0);
  await expect(errorToasts(page)).toHaveCount(0);
  await noUser.getByRole("button", { name: "Back to users" }).click();
  await expect(page).toHaveURL(/\/manage\/users(\?|$)/);
});

test("offline, screens say so instead of 'no access', and load by themselves when back online", async ({
  page,
  context,
  request,
}) => {
  const { category, product } = await seedProduct(request);
  // Online first: the users list and the show screen are loaded once, the identity is known.
  await signInTo(page, "/manage/users");
  await expect(page.getByText(/^\d+ users?$/)).toBeVisible(); // the list loaded (its total)
  await navigateInApp(page, `/manage/products/products/show/${product.id}`);
  await expect(page.getByRole("heading", { name: product.name })).toBeVisible();

  await context.setOffline(true);
  await expect(page.getByText("You are offline", { exact: true })).toBeVisible();
  // A resource whose access was never checked and whose record was never read.
  await navigateInApp(page, `/manage/products/categories/show/${category.id}`);
  const offline = loadError(page, "The category could not be loaded");
  await expect(offline).toBeVisible();
  await expect(offline).toContainText("You are offline");
  await expect(page.getByText("You do not have access to this module")).toHaveCount(0);
  await shoot(page, "record-offline");

  // A list already read stays readable; a new search says it waits for the network.
  await navigateInApp(page, "/manage/users");
  await expect(page.getByText(/^\d+ users?$/)).toBeVisible(); // the list loaded (its total)
  await expect(page.getByText("You do not have access to this module")).toHaveCount(0);
  await page.getByRole("searchbox", { name: "Search users" }).fill("nobody-here");
  await page.getByRole("searchbox", { name: "Search users" }).press("Enter");
  const usersOffline = loadError(page, "The users could not be loaded");
  await expect(usersOffline).toBeVisible();
  await expect(usersOffline).toContainText("You are offline");
  await expect(page.getByText("No users match these filters")).toHaveCount(0);
  await shoot(page, "users-offline");

  await navigateInApp(page, `/manage/products/categories/show/${category.id}`);
  await expect(offline).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByText("You are online", { exact: true })).toBeVisible();
  // No click: the screen retries as the connection comes back.
  await expect(page.getByRole("heading", { name: category.name })).toBeVisible();
  await expect(offline).toHaveCount(0);
});

test("the users list and the security log show their load errors in place, and Retry works", async ({
  page,
}) => {
  const users = await failApi(page, "/api/users", "500");
  await signInTo(page, "/manage/users");
  const usersFailed = loadError(page, "The users could not be loaded");
  await expect(usersFailed).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("No users yet")).toHaveCount(0);
  await expect(errorToasts(page)).toHaveCount(0);
  await shoot(page, "users-server-error");
  users.heal();
  await usersFailed.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByText(/^\d+ users?$/)).toBeVisible(); // the list loaded (its total)

  const log = await failApi(page, "/api/security-events", "abort");
  await navigateInApp(page, "/manage/users/security-log");
  const logFailed = loadError(page, "The security log could not be loaded");
  await expect(logFailed).toBeVisible({ timeout: 20_000 });
  await expect(logFailed).toContainText("The server did not answer");
  await shoot(page, "security-log-no-answer");
  log.heal();
  await logFailed.getByRole("button", { name: "Retry" }).click();
  await expect(page.locator(".ant-table-tbody tr.ant-table-row").first()).toBeVisible();
});

test("the mail outbox shows its load error in place, and Retry works", async ({ page }) => {
  const outbox = await failApi(page, "/api/outbox", "500");
  await signInTo(page, "/manage/outbox");
  const outboxFailed = loadError(page, "The mail outbox could not be loaded");
  await expect(outboxFailed).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("No mails yet")).toHaveCount(0);
  outbox.heal();
  await outboxFailed.getByRole("button", { name: "Retry" }).click();
  await expect(outboxFailed).toHaveCount(0);
  await expect(page.locator(".ant-table")).toBeVisible();
});

test("analytics and a module page's counts show their load errors in place, and Retry works", async ({
  page,
}) => {
  // The three analytics calls are POSTs; all of them fail.
  let analyticsFailing = true;
  await page.route(/\/api\/analytics\//, (route) =>
    analyticsFailing
      ? route.fulfill({ status: 500, json: { statusCode: 500, message: "boom" } })
      : route.fallback(),
  );
  await signInTo(page, "/manage/analytics");
  const analyticsFailed = loadError(page, "The analytics could not be loaded");
  await expect(analyticsFailed).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("Views", { exact: true })).toHaveCount(0);
  await shoot(page, "analytics-server-error");
  analyticsFailing = false;
  await analyticsFailed.getByRole("button", { name: "Retry" }).click();
  await expect(page.locator(".ant-statistic-title").getByText("Views", { exact: true })).toBeVisible();

  // The module page's record counts: the cards stay, an alert says the counts are missing.
  const counts = await failApi(page, "/api/(products|categories|sub-categories)", "500");
  await navigateInApp(page, "/manage/products");
  const countsFailed = loadError(page, "The record counts could not be loaded");
  await expect(countsFailed).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("listitem").filter({ hasText: "Not counted" }).first()).toBeVisible();
  await shoot(page, "module-counts-error");
  counts.heal();
  await countsFailed.getByRole("button", { name: "Retry" }).click();
  await expect(countsFailed).toHaveCount(0);
  await expect(page.getByText("Not counted")).toHaveCount(0);
});

test("a screen whose code does not arrive in time shows an error with Retry", async ({ page }) => {
  await signInTo(page);
  // The script load timeout, shortened so the test does not wait 2 minutes.
  await page.evaluate(() => {
    window.__ATELIER_SCRIPT_TIMEOUT_MS = 1500;
  });
  let release: (() => Promise<void>) | undefined;
  await page.route(/\/assets\/outbox-page-[^/]+\.js$/, (route) => {
    release = () => route.continue();
  });
  await navigateInApp(page, "/manage/outbox");
  const slow = page.getByRole("alert").filter({ hasText: "This screen took too long to load" });
  await expect(slow).toBeVisible();
  await expect(slow).toContainText("did not arrive within 2 seconds");
  await shoot(page, "screen-code-timeout");

  // The code arrives late; Retry shows the screen without reloading the page.
  expect(release).toBeDefined();
  await release?.();
  await page.evaluate(() => {
    (window as { __stillSamePage?: boolean }).__stillSamePage = true;
  });
  await slow.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("heading", { name: "Mail outbox" })).toBeVisible();
  expect(await page.evaluate(() => (window as { __stillSamePage?: boolean }).__stillSamePage)).toBe(true);
});

test("a list opened with a session whose layout code never comes still shows the error with Retry", async ({
  page,
}) => {
  await signInTo(page);
  // The first render waits for the layout's and the list's code (src/main.tsx), never for good.
  await page.addInitScript(() => {
    window.__ATELIER_SCRIPT_TIMEOUT_MS = 1500;
  });
  await page.route(/\/assets\/app-[^/]+\.js$/, () => {});
  await page.goto("/manage/products/products");
  await expect(
    page.getByRole("alert").filter({ hasText: "This screen took too long to load" }),
  ).toBeVisible();
});

test("offline, a screen whose code was never loaded waits for the connection, then shows", async ({
  page,
  context,
}) => {
  await signInTo(page);
  await context.setOffline(true);
  await navigateInApp(page, "/manage/outbox");
  const waiting = page.getByRole("alert").filter({ hasText: "This screen could not be loaded" });
  await expect(waiting).toContainText("You are offline. This screen will load by itself");
  await expect(waiting.getByRole("button", { name: "Retry" })).toBeDisabled();
  await expect(page.getByText("You do not have access to this module")).toHaveCount(0);
  await shoot(page, "screen-code-offline");
  await context.setOffline(false);
  await expect(page.getByRole("heading", { name: "Mail outbox" })).toBeVisible();
});
