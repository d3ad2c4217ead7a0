/**
 * First load of the admin app (issue 13), after `vite build`:
 *
 * - in the browser: the real server (fresh DATA_DIR, compression on) serves the build to
 *   Chromium, which loads /manage/login and, signed in, a list screen with an empty cache;
 *   the JavaScript each transfers (compressed bytes) is printed beside its floor, with the
 *   raw and gzip sizes of the same files, and the time from navigation to the list's first row;
 * - from the build: all JavaScript, raw and gzip.
 *
 * Prints figures; the byte budgets are asserted by tests/e2e/first-load.spec.ts.
 *
 *   node bench/bundle-size.mjs            (npm run bench:bundle; CLIENT_DIR=… for another build)
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { register } from "tsx/esm/api";

register();
const {
  FIRST_LOAD_BUDGETS,
  inAppFirstRowMs,
  LIST_MENU_GROUP,
  LIST_SCREEN,
  kb,
  listReady,
  loginReady,
  measureScreen,
  returnVisitFirstRowMs,
  seedProduct,
  signedInState,
} = await import("./first-load.ts");
const { freePort } = await import("../scripts/pg-cluster.ts");

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = process.env.CLIENT_DIR
  ? path.resolve(process.env.CLIENT_DIR)
  : path.join(root, "dist", "client");
const base = "/manage/";
const ADMIN = { email: "admin@example.com", password: "Bench-Passw0rd!" };

if (!existsSync(path.join(outDir, "index.html"))) {
  console.error(
    `${path.relative(root, outDir) || outDir}/index.html is missing: run \`npx vite build\` first.`,
  );
  process.exit(1);
}

const rawOf = (file) => readFileSync(path.join(outDir, file)).length;
const gzipOf = (file) => gzipSync(readFileSync(path.join(outDir, file))).length;
/** The built file behind a URL of the app (`/manage/assets/x.js` → `assets/x.js`). */
const fileOf = (url) => decodeURIComponent(new URL(url).pathname).replace(base, "");

/** Starts the real server on the build; resolves with its origin and a stop function. */
async function startServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-bundle-"));
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      CLIENT_DIR: outDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: origin,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
      DATABASE_URL: "",
      SMTP_URL: "",
      JWT_SECRET: "",
    },
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return { origin, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error("the server did not answer /api/health within 300 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** One screen's figures: transferred (what the browser got), and raw and gzip of the same files. */
function row(label, load, floor) {
  const files = load.scripts.map((s) => fileOf(s.url)).filter((f) => existsSync(path.join(outDir, f)));
  const raw = files.reduce((sum, f) => sum + rawOf(f), 0);
  const gzip = files.reduce((sum, f) => sum + gzipOf(f), 0);
  const encodings = [...new Set(load.scripts.map((s) => s.encoding))].join("+");
  const verdict = load.bytes <= floor ? "within" : "OVER";
  console.log(
    `  ${label.padEnd(26)} ${kb(load.bytes).padStart(9)} transferred (${encodings}), floor ${kb(floor)}: ${verdict}` +
      `   [${kb(raw)} raw, ${kb(gzip)} gzip, ${load.scripts.length} files]`,
  );
}

const { origin, stop } = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic"],
});
try {
  console.log(`Atelier first load (Chromium, empty cache, server compression on; ${origin})`);
  const loginContext = await browser.newContext();
  const login = await measureScreen(loginContext, `${origin}/manage/login`, loginReady);
  await loginContext.close();

  await seedProduct(origin, ADMIN.email, ADMIN.password);
  const storageState = await signedInState(browser, origin, ADMIN.email, ADMIN.password);
  const listContext = await browser.newContext({ storageState });
  const list = await measureScreen(listContext, `${origin}${LIST_SCREEN}`, listReady);
  const returning = await returnVisitFirstRowMs(listContext, `${origin}${LIST_SCREEN}`);
  const inApp = await inAppFirstRowMs(listContext, `${origin}/manage/`, LIST_SCREEN, LIST_MENU_GROUP);
  await listContext.close();

  row("/manage/login JS", login, FIRST_LOAD_BUDGETS.loginBytes);
  row(`${LIST_SCREEN} JS`, list, FIRST_LOAD_BUDGETS.listBytes);
  const timeRow = (label, ms, from) =>
    console.log(
      `  ${label.padEnd(26)} ${`${ms ?? "?"} ms`.padStart(9)} ${from}, floor ${FIRST_LOAD_BUDGETS.firstRowMs} ms: ${
        ms !== undefined && ms <= FIRST_LOAD_BUDGETS.firstRowMs ? "within" : "OVER"
      }`,
    );
  timeRow("list: first row, cold", list.firstRowMs, "after navigation start, empty cache");
  timeRow("list: first row, return", returning, "after navigation start, third visit (warm cache)");
  timeRow("list: first row, in app", inApp, "after the menu click on the home screen");
  console.log("  (timings are printed, not asserted)");
  for (const [label, load] of [
    ["login", login],
    ["list", list],
  ]) {
    console.log(`  ${label} files:`);
    for (const s of [...load.scripts].sort((a, b) => b.bytes - a.bytes)) {
      console.log(`    ${kb(s.bytes).padStart(9)}  ${fileOf(s.url)}`);
    }
  }
} finally {
  await browser.close();
  await stop();
}

const allJs = readdirSync(path.join(outDir, "assets"))
  .filter((f) => f.endsWith(".js"))
  .map((f) => `assets/${f}`);
const allRaw = allJs.reduce((sum, f) => sum + rawOf(f), 0);
const allGzip = allJs.reduce((sum, f) => sum + gzipOf(f), 0);
console.log(`  all JS of the build:       ${kb(allGzip)} gzip (${kb(allRaw)} raw, ${allJs.length} files)`);
