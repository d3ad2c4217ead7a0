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
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { register } from "tsx/esm/api";

register();
const {
  FIRST_LOAD_BUDGETS,
  FIRST_ROW_TARGETS,
  inAppFirstRowMs,
  LOGIN_FORM,
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
const builtDir = process.env.CLIENT_DIR
  ? path.resolve(process.env.CLIENT_DIR)
  : path.join(root, "dist", "client");
const base = "/manage/";
const ADMIN = { email: "admin@example.com", password: "Bench-Passw0rd!" };

if (!existsSync(path.join(builtDir, "index.html"))) {
  console.error(
    `${path.relative(root, builtDir) || builtDir}/index.html is missing: run \`npx vite build\` first.`,
  );
  process.exit(1);
}

/**
 * What the server serves: a copy of the build with the floor app (bench/floor-app, a bare
 * Refine + antd app) built into its `floor/`, so both come from one server, origin and cookie.
 */
const outDir = mkdtempSync(path.join(os.tmpdir(), "atelier-bundle-client-"));
cpSync(builtDir, outDir, { recursive: true });
{
  const { build } = await import("vite");
  process.env.FLOOR_OUT_DIR = path.join(outDir, "floor");
  await build({ configFile: path.join(root, "bench", "floor-app", "vite.config.ts") });
}
const FLOOR = "/manage/floor/index.html#";

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

/** The median of a list of times (ms). */
const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : undefined;
};
/** Cold loads, each in a context of its own (an empty cache), of one screen. */
const TRIES = 3;

/** Times one app (Atelier, or the floor app at `paths`) as issue 28 asks, medians of TRIES. */
async function timeApp(browser, storageState, paths) {
  const logins = [];
  const colds = [];
  const returns = [];
  const inApps = [];
  let login;
  let list;
  for (let n = 0; n < TRIES; n++) {
    const loginContext = await browser.newContext();
    login = await measureScreen(loginContext, `${origin}${paths.login}`, loginReady, LOGIN_FORM);
    logins.push(login.shownMs);
    await loginContext.close();
    const listContext = await browser.newContext({ storageState });
    list = await measureScreen(listContext, `${origin}${paths.list}`, listReady);
    colds.push(list.shownMs);
    if (n === 0) returns.push(...(await returnVisitFirstRowMs(listContext, `${origin}${paths.list}`)));
    inApps.push(await inAppFirstRowMs(listContext, `${origin}${paths.home}`, paths.link, paths.menuGroup));
    await listContext.close();
  }
  return {
    login,
    list,
    loginMs: median(logins),
    coldMs: median(colds),
    returnMs: median(returns),
    inAppMs: median(inApps),
    all: { logins, colds, returns, inApps },
  };
}

const { origin, stop } = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic"],
});
try {
  console.log(`Atelier first load (Chromium, server compression on; ${origin}), medians of ${TRIES}`);
  await seedProduct(origin, ADMIN.email, ADMIN.password);
  const storageState = await signedInState(browser, origin, ADMIN.email, ADMIN.password);
  const app = await timeApp(browser, storageState, {
    login: "/manage/login",
    list: LIST_SCREEN,
    home: "/manage/",
    link: LIST_SCREEN,
    menuGroup: LIST_MENU_GROUP,
  });
  const floor = await timeApp(browser, storageState, {
    login: `${FLOOR}/login`,
    list: `${FLOOR}/products`,
    home: `${FLOOR}/`,
    link: "#/products",
  });

  row("/manage/login JS", app.login, FIRST_LOAD_BUDGETS.loginBytes);
  row(`${LIST_SCREEN} JS`, app.list, FIRST_LOAD_BUDGETS.listBytes);
  console.log(`  ${"floor app: login JS".padEnd(26)} ${kb(floor.login.bytes).padStart(9)} transferred`);
  console.log(`  ${"floor app: list JS".padEnd(26)} ${kb(floor.list.bytes).padStart(9)} transferred`);
  console.log("");
  console.log(
    `  ${"time, ms".padEnd(26)} ${"Atelier".padStart(8)} ${"floor app".padStart(10)} ${"target".padStart(7)}   verdict`,
  );
  const timeRow = (label, ours, theirs, target) =>
    console.log(
      `  ${label.padEnd(26)} ${String(ours ?? "?").padStart(8)} ${String(theirs ?? "?").padStart(10)} ${String(target).padStart(7)}   ${
        ours !== undefined && ours <= target ? "within" : "OVER"
      }`,
    );
  timeRow("login form, cold", app.loginMs, floor.loginMs, FIRST_ROW_TARGETS.loginForm);
  timeRow("list: first row, cold", app.coldMs, floor.coldMs, FIRST_ROW_TARGETS.cold);
  timeRow("list: first row, return", app.returnMs, floor.returnMs, FIRST_ROW_TARGETS.returnVisit);
  timeRow("list: first row, in app", app.inAppMs, floor.inAppMs, FIRST_ROW_TARGETS.inApp);
  console.log(
    "  (from navigation start, or the menu click for in app; a cold load has an empty cache, a return visit is the 3rd-5th load in one context; printed, not asserted)",
  );
  console.log(`  all tries, Atelier: ${JSON.stringify(app.all)}`);
  console.log(`  all tries, floor:   ${JSON.stringify(floor.all)}`);
  for (const [label, load] of [
    ["login", app.login],
    ["list", app.list],
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
rmSync(outDir, { recursive: true, force: true });
