/**
 * The e2e server's fixed settings, shared by playwright.config.ts and the specs.
 * Plain constants only: the config imports this before any test runs.
 */

/** Port of the e2e server (override with E2E_PORT if 18931 is taken). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 18931);
/** Origin of the e2e server; the SPA lives under `${E2E_ORIGIN}/manage/`. */
export const E2E_ORIGIN = `http://127.0.0.1:${E2E_PORT}`;
/** First admin, created by the server on its first start with an empty DATA_DIR. */
export const ADMIN_EMAIL = "admin@example.com";
export const ADMIN_PASSWORD = "Admin-Passw0rd!";

/**
 * The BigCommerce stand-in the e2e server talks to (tests/e2e/fake-store.ts, started beside it by
 * scripts/e2e-server.mjs): its port, store hash and API token.
 */
export const E2E_STORE = {
  port: Number(process.env.E2E_STORE_PORT ?? 18932),
  hash: "e2estore1",
  token: "e2e-store-api-token",
} as const;
