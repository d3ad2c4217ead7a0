/**
 * First load as the browser sees it (issue 13): the compressed JavaScript a cold visit to
 * /manage/login and to a list screen transfers, and how long a list takes to show its first
 * row. Shared by bench/bundle-size.mjs (prints the figures) and tests/e2e/first-load.spec.ts
 * (asserts the byte budgets; bytes are deterministic, time is only printed).
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";

/** Budgets of issue 13, in bytes (1 KB = 1024 bytes). */
export const FIRST_LOAD_BUDGETS = {
  loginBytes: 200 * 1024,
  listBytes: 400 * 1024,
} as const;

/**
 * Time targets of issue 28 (quiet machine, Chromium), in ms from navigation start (a click for
 * `inApp`) to the list's first row, or to the sign-in form. Printed by the bench, never asserted.
 */
export const FIRST_ROW_TARGETS = { cold: 1000, returnVisit: 700, inApp: 300, loginForm: 500 } as const;

/** What a list screen shows first, and the sign-in form's field the login screen is timed by. */
export const FIRST_ROW = ".ant-table-row";
export const LOGIN_FORM = 'input[type="password"]';

/** The list screen measured (a resource list with the usual filters, table and pagination). */
export const LIST_SCREEN = "/manage/products/products";
/** The menu group holding {@link LIST_SCREEN}'s link (folded until opened). */
export const LIST_MENU_GROUP = "Products";

/** One JavaScript file as it came over the wire. */
export interface LoadedScript {
  url: string;
  /** Bytes of the body as transferred (compressed), headers excluded. */
  bytes: number;
  encoding: string;
  cacheControl: string;
}

export interface ScreenLoad {
  scripts: LoadedScript[];
  /** Sum of `bytes` over `scripts`. */
  bytes: number;
  /** Navigation start → the first element the screen is timed by ({@link FIRST_ROW}, {@link LOGIN_FORM}). */
  shownMs?: number;
}

type Timed = Window & { __shownAt?: number; __clickAt?: number };

/**
 * Marks, in page time, when the first element matching `selector` is added (an init script:
 * set before any script of the page runs).
 */
function watchFirst(selector: string) {
  const win = window as Timed;
  const observer = new MutationObserver(() => {
    if (win.__shownAt === undefined && document.querySelector(selector)) {
      win.__shownAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true });
}

/**
 * Opens `url` in a fresh page of `context` (whose cache is empty: a new context), waits for
 * `ready`, then for the network to settle, and returns every JavaScript file it transferred.
 * What loads after the screen is ready (lazy parts, prefetches) counts too.
 */
export async function measureScreen(
  context: BrowserContext,
  url: string,
  ready: (page: Page) => Promise<void>,
  shown = FIRST_ROW,
): Promise<ScreenLoad> {
  await context.addInitScript(watchFirst, shown);
  const page = await context.newPage();
  const pending: Promise<LoadedScript | null>[] = [];
  page.on("response", (response) => {
    const type = response.headers()["content-type"] ?? "";
    if (!/javascript/.test(type) && !/\.m?js(\?|$)/.test(response.url())) return;
    pending.push(
      response
        .request()
        .sizes()
        .then((sizes) => ({
          url: response.url(),
          bytes: sizes.responseBodySize,
          encoding: response.headers()["content-encoding"] ?? "identity",
          cacheControl: response.headers()["cache-control"] ?? "",
        }))
        .catch(() => null),
    );
  });
  await page.goto(url);
  await ready(page);
  await page.waitForLoadState("networkidle");
  const scripts = (await Promise.all(pending)).filter((s): s is LoadedScript => s !== null);
  const shownAt = await page.evaluate(() => (window as Timed).__shownAt);
  await page.close();
  return {
    scripts,
    bytes: scripts.reduce((sum, s) => sum + s.bytes, 0),
    shownMs: shownAt === undefined ? undefined : Math.round(shownAt),
  };
}

/**
 * The first row's time on return visits: `visits` loads of `url` in `context` one after the
 * other (the HTTP cache and V8's code cache warm up on the first ones, the first two are not
 * counted). Navigation start → first row of each counted visit, in ms. The context's pages
 * must be watched already (measureScreen added the watcher).
 */
export async function returnVisitFirstRowMs(
  context: BrowserContext,
  url: string,
  visits = 5,
): Promise<number[]> {
  const times: number[] = [];
  for (let visit = 0; visit < visits; visit++) {
    const page = await context.newPage();
    await page.goto(url);
    await listReady(page);
    const ms = await page.evaluate(() => (window as Timed).__shownAt ?? Number.NaN);
    if (visit >= 2) times.push(Math.round(ms));
    await page.close();
  }
  return times;
}

/**
 * The first row's time of a navigation inside the app: from `from` (loaded, its network
 * settled), a click on the menu's link to `listPath` (its `href`; opening `menuGroup` first
 * when it is folded), to the first row of the list, in ms.
 */
export async function inAppFirstRowMs(
  context: BrowserContext,
  from: string,
  listPath: string,
  menuGroup?: string,
): Promise<number> {
  const page = await context.newPage();
  await page.goto(from);
  await page.waitForLoadState("networkidle");
  const item = page.locator(`.ant-layout-sider a[href="${listPath}"]`);
  if (menuGroup && !(await item.isVisible())) {
    await page.locator(".ant-layout-sider .ant-menu-submenu-title").filter({ hasText: menuGroup }).click();
  }
  await item.waitFor();
  // The row watcher as a page load has it, started afresh for this screen, and the click's time.
  await page.evaluate(() => {
    const win = window as Timed;
    win.__shownAt = undefined;
    document.addEventListener("click", () => (win.__clickAt = performance.now()), {
      capture: true,
      once: true,
    });
  });
  await page.evaluate(watchFirst, FIRST_ROW);
  await item.click();
  await listReady(page);
  const ms = await page.evaluate(() => {
    const win = window as Timed;
    return (win.__shownAt ?? Number.NaN) - (win.__clickAt ?? Number.NaN);
  });
  await page.close();
  return Math.round(ms);
}

/** The login screen is ready when its form is there. */
export const loginReady = async (page: Page) => {
  await page.getByLabel("Password", { exact: true }).waitFor();
};

/** A list screen is ready when its first row shows. */
export const listReady = async (page: Page) => {
  await page.locator(FIRST_ROW).first().waitFor();
};

/**
 * Signs in through the login screen in a context of its own and returns its storage (tokens,
 * device id), so a later context opens screens behind sign-in with an empty HTTP cache.
 */
export async function signedInState(browser: Browser, origin: string, email: string, password: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/manage/login`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => !url.pathname.endsWith("/login"));
  const state = await context.storageState();
  await context.close();
  return state;
}

/**
 * Makes sure the products list has a row: a category and a product through the API, unless
 * there is a product already.
 */
export async function seedProduct(origin: string, email: string, password: string): Promise<void> {
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const { accessToken } = (await call("POST", "/api/auth/signin", undefined, {
    email,
    password,
    deviceInfo: { deviceId: "first-load-bench", deviceName: "First-load bench" },
  })) as { accessToken: string };
  const list = (await call("GET", "/api/products?page=1&pageSize=1", accessToken)) as { total: number };
  if (list.total > 0) return;
  const category = (await call("POST", "/api/categories", accessToken, { name: "First-load lamps" })) as {
    id: string;
  };
  await call("POST", "/api/products", accessToken, {
    sku_code: "FIRST-LOAD-1",
    name: "Desk lamp",
    price: 49.5,
    category_id: category.id,
  });
}

/** `12.3 KB` (1 KB = 1024 bytes). */
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
