/**
 * The engine bench's module lists, on the side of the bench's own process
 * (bench/resource-engine-setup.ts calls these): the CMS type and the contact form made through
 * the app's admin API (the CMS and forms benches' own makers), a probe of each list through
 * both sides checked against the seeded rows, and the requests whose statements are printed.
 */
import { apiOf, makeArticleType } from "./cms-public-setup";
import { makeContactForm } from "./forms-submissions-setup";
import { MODULE_CASES, type ModuleCase, type ModuleIds } from "./module-lists";
import { MODULE_ROWS } from "./module-lists-seed";
import { CASES, PAGE_SIZE } from "./resource-engine-settings";

/** The module cases BENCH_CASES selects. */
export const selectedModuleCases = (): ModuleCase[] => MODULE_CASES.filter((c) => CASES.has(c.name));

/** Through the admin API: the article type (with its domain and component) and the published contact form. */
export async function makeModuleFixtures(engineUrl: string, token: string): Promise<ModuleIds> {
  const api = apiOf(engineUrl, token);
  await makeArticleType(api);
  const { form } = await makeContactForm(api);
  return { formId: form.id };
}

type ListAnswer = { data?: Array<Record<string, unknown>>; total?: number; message?: string };

const keysOf = (row: Record<string, unknown> | undefined) => Object.keys(row ?? {}).sort();

/**
 * Page 1 of each list through both sides, before anything is measured: both must answer 200
 * with PAGE_SIZE rows of the MODULE_ROWS seeded (else the bench stops: a wrong token, path or
 * seed), and are compared on what they carry — the rows' order (by a label both databases
 * share) and the first row's fields, printed as "same" or what differs.
 */
export async function probeModules(
  engineUrl: string,
  token: string,
  floorUrl: string,
  ids: ModuleIds,
  cases: readonly ModuleCase[],
): Promise<void> {
  const rows = Math.min(PAGE_SIZE, MODULE_ROWS);
  for (const c of cases) {
    const get = async (url: string, headers: Record<string, string> = {}) => {
      const res = await fetch(url, { headers });
      return { status: res.status, body: (await res.json()) as ListAnswer };
    };
    const engine = await get(`${engineUrl}${c.enginePath(ids)}`, { authorization: `Bearer ${token}` });
    const floor = await get(`${floorUrl}${c.floorPath(ids)}`);
    for (const [side, r] of [
      ["engine", engine],
      ["floor", floor],
    ] as const) {
      if (r.status !== 200 || r.body.data?.length !== rows || r.body.total !== MODULE_ROWS)
        throw new Error(
          `probe ${c.name}: the ${side} answered ${r.status}, ${r.body.data?.length} rows of total ${r.body.total} ` +
            `(expected ${rows} of ${MODULE_ROWS}) ${r.body.message ?? ""}`,
        );
    }
    const e = engine.body.data ?? [];
    const f = floor.body.data ?? [];
    const order = e.every((row, i) => c.labelOf(row) === c.labelOf(f[i]));
    const [ek, fk] = [keysOf(e[0]), keysOf(f[0])];
    const onlyEngine = ek.filter((k) => !fk.includes(k));
    const onlyFloor = fk.filter((k) => !ek.includes(k));
    const fields =
      onlyEngine.length || onlyFloor.length
        ? `DIFFER (engine only: ${onlyEngine.join(", ") || "-"}; floor only: ${onlyFloor.join(", ") || "-"})`
        : `same (${ek.length})`;
    console.log(
      `probe ${c.name}: engine and floor ${rows} rows of total ${MODULE_ROWS}; order ${order ? "same" : `DIFFERS (engine ${c.labelOf(e[0])}…, floor ${c.labelOf(f[0])}…)`}; fields ${fields}`,
    );
  }
}

/** One request of each module case, for the statements it sends. */
export function moduleRequests(
  engineUrl: string,
  token: string,
  ids: ModuleIds,
  cases: readonly ModuleCase[],
): Record<string, () => Promise<Response>> {
  const headers = { authorization: `Bearer ${token}` };
  return Object.fromEntries(
    cases.map((c) => [c.name, () => fetch(`${engineUrl}${c.enginePath(ids)}`, { headers })]),
  );
}
