/** Steps shared by states.spec.ts: failing one API path on demand, signing in to a screen, screenshots. */
import { expect, type Page, type Route } from "@playwright/test";
import { navigateInApp, signIn } from "./helpers";
import { shoot as shootBoth } from "./shots";

/** Screenshots of the page as it is, at 1440×900 and 1280×800 (tests/e2e/shots.ts). */
export const shoot = (page: Page, name: string): Promise<void> => shootBoth(page, "states", name);

export type Failure = "500" | "abort" | "hang";

/**
 * Makes GET requests to the API path `pathname` (a regular expression's source, matched whole,
 * any query string) fail as `failure` until `heal()` is called; after that they pass through.
 * A hung request is let go on heal. A regular expression, not a function: Playwright matches
 * it in the browser's driver, so other requests are not held up by a trip to the test.
 *
 * @example
 * const api = await failApi(page, "/api/users", "500");
 * ...
 * api.heal();
 */
export async function failApi(page: Page, pathname: string, failure: Failure) {
  let failing = true;
  let failed = 0;
  let sent = 0;
  const hung: Route[] = [];
  const url = new RegExp(`^[a-z]+://[^/]+${pathname}(\\?.*)?$`);
  // Counted as the browser sends them: on a loaded machine a request can time out in the
  // page before the route handler below has even seen it.
  page.on("request", (request) => {
    if (failing && request.method() === "GET" && url.test(request.url())) sent += 1;
  });
  await page.route(url, async (route) => {
    if (!failing || route.request().method() !== "GET") return route.fallback();
    failed += 1;
    if (failure === "500")
      return route.fulfill({
        status: 500,
        json: { statusCode: 500, error: "Internal Server Error", message: "boom" },
      });
    if (failure === "abort") return route.abort("connectionrefused");
    hung.push(route);
  });
  return {
    /** How many requests were failed so far. */
    failed: () => failed,
    /** How many requests the page sent while failing. */
    sent: () => sent,
    heal() {
      failing = false;
      for (const route of hung.splice(0)) void route.abort("timedout").catch(() => undefined);
    },
  };
}

/** The in-place load error (src/components/load-error.tsx) of `what`. */
export const loadError = (page: Page, title: string) =>
  page.getByRole("alert").filter({ has: page.getByText(title, { exact: true }) });

/** Error toasts on screen (antd message). */
export const errorToasts = (page: Page) => page.locator(".ant-message-notice .ant-message-error");

/**
 * Signs in, waits for the app to be up (its menu: on a loaded machine booting the app takes
 * a while, so this waits longer than an expect does), then goes to `to` inside the app. Later
 * moves use {@link navigateInApp}, so the app boots once per test. Without `to`, stays home.
 */
export async function signInTo(page: Page, to?: string): Promise<void> {
  await signIn(page);
  // An entry shown after an access check: the identity is known (the offline checks use it).
  await expect(page.getByRole("menu").first().getByRole("link", { name: "Mail outbox" })).toBeVisible({
    timeout: 60_000,
  });
  if (to) await navigateInApp(page, to);
}
