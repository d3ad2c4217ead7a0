/**
 * End-to-end tests: the real server (scripts/e2e-server.mjs, fresh DATA_DIR) serving the built
 * SPA, driven in the system Chromium. A missing browser or build is an error, never a skip.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD, E2E_PORT, E2E_STORE } from "./tests/e2e/env";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  throw new Error(
    `Chromium not found at ${chromium}. Install it (apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary.`,
  );
}
if (!existsSync(path.join(import.meta.dirname, "dist", "client", "index.html"))) {
  throw new Error(
    "dist/client/index.html is missing: build the SPA first (npx vite build; npm test does it).",
  );
}

const origin = `http://127.0.0.1:${E2E_PORT}`;

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: ".tmp/e2e-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  // A cap for a stuck test, not a timing check: a busy machine runs the longest flows past 30 s.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: process.env.E2E_JSON_REPORT ?? ".tmp/reports/e2e.json" }]],
  use: {
    baseURL: `${origin}/manage/`,
    screenshot: "only-on-failure",
    // No trace by default: recording one (a DOM snapshot at every action, a screencast) took
    // a third of the specs' CPU, for a file kept only when a test fails. To debug a failure,
    // run it again with one: `npx playwright test <spec> --trace retain-on-failure` (or `on`).
    trace: "off",
    browserName: "chromium",
    // The system asks for less motion, which the app honours (antd's motion off: dialogs,
    // drawers and menus appear at once). Fewer frames to draw and wait for on two cores; the
    // app with motion is checked in smoke.spec.ts.
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `${origin}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    env: {
      PORT: String(E2E_PORT),
      HOST: "127.0.0.1",
      PUBLIC_URL: origin,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      ACCESS_TOKEN_TTL: "5",
      // Every spec signs in from 127.0.0.1, a few hundred times a run: more than the per-address
      // limit a real client has (100 in 15 min, tested in tests/server). Per-account limits stay.
      AUTH_MAX_ATTEMPTS_IP: "5000",
      LOG_LEVEL: "warn",
      // Always the embedded database and the outbox, whatever the developer's shell has.
      DATABASE_URL: "",
      SMTP_URL: "",
      JWT_SECRET: "",
      // The BigCommerce stand-in scripts/e2e-server.mjs starts beside the server.
      BIGCOMMERCE_API_URL: `http://127.0.0.1:${E2E_STORE.port}`,
    },
  },
});
