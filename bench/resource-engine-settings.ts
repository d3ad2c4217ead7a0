/** The engine bench's settings (BENCH_* environment variables) and request paths. */
// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

export const env = process.env;
export const DURATION = Number(env.BENCH_DURATION || 8);
export const WARMUP = 2;
/** Engine and floor alternate in this many slices of DURATION / ROUNDS each (ABAB), against drift. */
export const ROUNDS = 2;
export const CONNECTIONS = Number(env.BENCH_CONNECTIONS || 10);
export const PRODUCTS = Number(env.BENCH_PRODUCTS || 100_000);
export const PAGE_SIZE = 25;
export const DEEP_PAGE = 25;
export const TARGET = 0.6;
export const ADMIN = { email: "bench-admin@example.com", password: "Bench-Passw0rd!" };
export const DRIVERS = (env.BENCH_DRIVERS || "pglite,postgres").split(",").map((d) => d.trim()) as Array<
  "pglite" | "postgres"
>;
export const CASES = new Set((env.BENCH_CASES || "list,deep,get,create").split(",").map((c) => c.trim()));
export const FILTERS = encodeURIComponent(
  JSON.stringify([{ field: "status", operator: "eq", value: "active" }]),
);
export const listPath = (page: number) =>
  `/api/products?page=${page}&pageSize=${PAGE_SIZE}&sort=-price&filters=${FILTERS}`;
export const floorListPath = (page: number, count: "capped" | "plain") =>
  `/floor/products?status=active&page=${page}&pageSize=${PAGE_SIZE}&count=${count}`;
