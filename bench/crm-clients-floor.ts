/**
 * The CRM clients bench's floor (bench/crm-clients.ts): a bare Fastify 5 server in a process of
 * its own (this file, forked with `--crm-floor-child`) with a `pg` Pool of its own (max 10) on
 * the app's database, answering `{ data, total }` of the clients whose custom field matches,
 * newest updated first, from ONE SQL statement each: the page and its exact total (a scalar
 * subquery, run once). No auth, no validation, no response schema, no hooks; each row as the
 * driver gives it, its custom values left in `custom`.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { ForkedServer, serveForked } from "./bench-run";
import { listenFloor, openFloorDatabase, type Query } from "./resource-engine-floor";

/** The statements, with the expressions the app's custom-field indexes are built on. */
export const FLOOR_SQL = {
  tier: `select t.*, (select count(*)::int from clients where (custom ->> 'tier') = $1) as total
  from clients t where (t.custom ->> 'tier') = $1
  order by t.updated_at desc, t.id limit $2 offset $3`,
  size: `select t.*, (select count(*)::int from clients
      where ((custom ->> 'industry_size')::numeric) between $1 and $2) as total
  from clients t where ((t.custom ->> 'industry_size')::numeric) between $1 and $2
  order by t.updated_at desc, t.id limit $3 offset $4`,
};

function floorServer(query: Query): FastifyInstance {
  const floor = Fastify({ logger: false });
  const answer = (rows: Record<string, unknown>[]) => ({
    data: rows.map(({ total: _, ...row }) => row),
    total: rows.length ? Number(rows[0].total) : 0,
  });
  const paging = (q: { page?: string; pageSize?: string }) => {
    const pageSize = Number(q.pageSize ?? 25);
    return [pageSize, (Number(q.page ?? 1) - 1) * pageSize];
  };
  floor.get<{ Querystring: { tier: string; page?: string; pageSize?: string } }>(
    "/floor/clients/tier",
    async (request) =>
      answer((await query(FLOOR_SQL.tier, [request.query.tier, ...paging(request.query)])).rows),
  );
  floor.get<{ Querystring: { from: string; to: string; page?: string; pageSize?: string } }>(
    "/floor/clients/size",
    async (request) =>
      answer(
        (
          await query(FLOOR_SQL.size, [
            Number(request.query.from),
            Number(request.query.to),
            ...paging(request.query),
          ])
        ).rows,
      ),
  );
  return floor;
}

export interface CrmFloorStart {
  databaseUrl: string;
}

export interface CrmFloorReady {
  url: string;
  where: string;
}

async function startFloor(
  start: CrmFloorStart,
): Promise<{ ready: CrmFloorReady; close: () => Promise<void> }> {
  const { query, where, closers } = await openFloorDatabase({
    databaseUrl: start.databaseUrl,
    inMemory: false,
  });
  const { url, close } = await listenFloor(floorServer(query), closers);
  return { ready: { url, where }, close };
}

export const startCrmFloor = (start: CrmFloorStart): Promise<ForkedServer<CrmFloorReady>> =>
  ForkedServer.start<CrmFloorStart, CrmFloorReady>(import.meta.url, "--crm-floor-child", start);

if (process.argv[2] === "--crm-floor-child") serveForked(startFloor);
