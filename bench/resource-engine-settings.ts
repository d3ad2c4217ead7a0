/** The engine bench's settings (BENCH_* environment variables) and request paths. */
// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

export const env = process.env;
export const DURATION = Number(env.BENCH_DURATION || 8);
export const WARMUP = Number(env.BENCH_WARMUP || 2);
/**
 * Engine and floor alternate in this many slices of DURATION / ROUNDS each (ABAB…), so a change
 * in the machine's load (another process, a CPU frequency step) hits both sides alike.
 */
export const ROUNDS = Number(env.BENCH_ROUNDS || 4);
export const CONNECTIONS = Number(env.BENCH_CONNECTIONS || 10);
export const PRODUCTS = Number(env.BENCH_PRODUCTS || 10_000);
export const PAGE_SIZE = 25;
/** The CMS benches' collection type and the forms benches' form, made through the admin API. */
export const CMS_TYPE = "article";
export const FORM_SLUG = "bench-contact";
/** The ratio engine ÷ floor each case should reach (issue 12). */
export const TARGET = 0.8;
export const ADMIN = { email: "bench-admin@example.com", password: "Bench-Passw0rd!" };
export type Driver = "pglite" | "postgres";
export const DRIVERS = (env.BENCH_DRIVERS || "pglite,postgres").split(",").map((d) => d.trim()) as Driver[];
/** The products cases, then the module lists (bench/module-lists.ts). */
export const ALL_CASES = [
  "list",
  "get",
  "create",
  "update",
  "cms-entries",
  "form-submissions",
  "crm-clients",
  "automations",
  "proposals",
];
export const CASES = new Set((env.BENCH_CASES || ALL_CASES.join(",")).split(",").map((c) => c.trim()));
/** PGlite in a temp data dir, as a deployment runs it; BENCH_PGLITE_DIR=memory keeps it in memory. */
export const PGLITE_IN_MEMORY = env.BENCH_PGLITE_DIR === "memory";
export const FILTERS = encodeURIComponent(
  JSON.stringify([{ field: "status", operator: "eq", value: "active" }]),
);
export const listPath = (page: number) =>
  `/api/products?page=${page}&pageSize=${PAGE_SIZE}&sort=-price&filters=${FILTERS}`;
export const floorListPath = (page: number) =>
  `/floor/products?status=active&page=${page}&pageSize=${PAGE_SIZE}`;
