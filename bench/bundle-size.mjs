/**
 * Bundle size of the admin app: the gzip size of the JavaScript the /manage/login route
 * loads (entry + its static imports + the login page's lazy chunk and its static imports)
 * and of all JavaScript. Run after `vite build`. Prints figures only.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(root, "dist", "client");
const manifestPath = path.join(outDir, ".vite", "manifest.json");
const LOGIN_PAGE = "src/pages/auth/login-page.tsx";

if (!existsSync(manifestPath)) {
  console.error(`${path.relative(root, manifestPath)} is missing: run \`npx vite build\` first.`);
  process.exit(1);
}

/** @type {Record<string, { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }>} */
const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
const html = readFileSync(path.join(outDir, "index.html"), "utf8");
const base = "/manage/";

/** Entry chunks: the module scripts index.html loads. */
const scriptFiles = [...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)].map((m) =>
  m[1].startsWith(base) ? m[1].slice(base.length) : m[1].replace(/^\//, ""),
);
const entryKeys = Object.keys(manifest).filter((key) => scriptFiles.includes(manifest[key].file));
if (entryKeys.length === 0) {
  console.error("No entry script of index.html was found in the manifest.");
  process.exit(1);
}
if (!manifest[LOGIN_PAGE]) {
  console.error(`${LOGIN_PAGE} is not a chunk of the manifest (is it still lazy-loaded?).`);
  process.exit(1);
}

/** Manifest keys of `keys` and everything they import statically. */
function withStaticImports(keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) visit(dep);
  };
  for (const key of keys) visit(key);
  return seen;
}

const gzipOf = (file) => gzipSync(readFileSync(path.join(outDir, file))).length;
const rawOf = (file) => readFileSync(path.join(outDir, file)).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

function measure(files) {
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    raw += rawOf(file);
    gzip += gzipOf(file);
  }
  return { count: files.length, raw, gzip };
}

const loginKeys = withStaticImports([...entryKeys, LOGIN_PAGE]);
const loginFiles = [...new Set([...loginKeys].map((key) => manifest[key].file))].filter((f) =>
  f.endsWith(".js"),
);
const allJs = readdirSync(path.join(outDir, "assets"))
  .filter((f) => f.endsWith(".js"))
  .map((f) => `assets/${f}`);

const login = measure(loginFiles);
const total = measure(allJs);
const entry = measure([
  ...new Set(
    [...withStaticImports(entryKeys)].map((key) => manifest[key].file).filter((f) => f.endsWith(".js")),
  ),
]);

console.log("Atelier bundle size (gzip, level 6)");
console.log(
  `  entry + static imports:   ${kb(entry.gzip)} gzip (${kb(entry.raw)} raw, ${entry.count} files)`,
);
console.log(
  `  login route JS:           ${kb(login.gzip)} gzip (${kb(login.raw)} raw, ${login.count} files)`,
);
console.log(
  `  total JS:                 ${kb(total.gzip)} gzip (${kb(total.raw)} raw, ${total.count} files)`,
);
console.log("  login route files:");
for (const file of loginFiles.sort((a, b) => gzipOf(b) - gzipOf(a))) {
  console.log(`    ${kb(gzipOf(file)).padStart(9)}  ${file}`);
}
