/**
 * The CMS bench's floor (bench/cms-public.ts): a bare Fastify 5 server in a process of its own
 * (this file, forked with `--cms-floor-child`) answering the same list as the public delivery
 * API, `{ data, total }` of a domain's published entries of a type, newest published first,
 * each `{ id, ...published values, publishedAt }` with its media field replaced by the asset's
 * fields, from ONE SQL statement (domain and type by their keys, the asset joined in, the total
 * as a scalar subquery): no auth, no validation, no response schema, no hooks, no ETag.
 *
 * It opens its database as the engine bench's floor does (`openFloorDatabase` in
 * bench/resource-engine-floor.ts): on PostgreSQL a `pg` Pool of its own on the same database;
 * on PGlite a PGlite of its own, migrated, with the rows the CMS side made through its admin
 * API copied in (content types, domains, assets, entries; foreign keys to the rest are not
 * checked, `session_replication_role = replica`).
 */
import Fastify, { type FastifyInstance } from "fastify";
import { THUMBNAIL_WIDTH } from "../schemas/dam";
import { ForkedServer, serveForked } from "./bench-run";
import { copyRows, listenFloor, openFloorDatabase, type Query } from "./resource-engine-floor";
import { CMS_TYPE } from "./resource-engine-settings";

/** Entries listed, all published, on one page of the list. */
export const ENTRIES = 25;
export const DOMAIN_KEY = "bench";
export const TYPE = CMS_TYPE;
/** The type's media field (the floor joins the asset on it). */
export const MEDIA_FIELD = "cover";
/** PUBLIC_URL of the app: media URLs are absolute on it. */
export const ORIGIN = "https://cdn.atelier-bench.example";
export const cmsPath = `/public-cms/${DOMAIN_KEY}/${TYPE}?pageSize=${ENTRIES}`;
export const floorPath = `/floor/${DOMAIN_KEY}/${TYPE}?pageSize=${ENTRIES}`;
/** The tables the floor reads, in an order their references allow, copied to its own PGlite. */
export const COPIED_TABLES = ["content_types", "cms_domains", "dam_assets", "cms_entries"] as const;

/**
 * Domain and type by their keys (once, in CTEs), the asset joined on the media field, the
 * total as an uncorrelated scalar subquery (run once). Of the spellings tried, the fastest on
 * both drivers, with a window count about as fast; a count correlated to the outer row runs
 * per row, 1.3× (PostgreSQL) to 1.7× (PGlite) slower.
 */
export const FLOOR_SQL = `with d as (select id from cms_domains where key = $1),
     ct as (select id from content_types where api_name = $2 and kind = 'collection')
select e.id, e.published, e.published_at,
       a.id as media_id, a.name as media_name, a.storage_key, a.mime, a.width, a.height, a.alt,
       (select count(*)::int from cms_entries c, d, ct
         where c.type_id = ct.id and c.status = 'published' and c.domain_ids @> array[d.id]) as total
  from d, ct, cms_entries e
  left join dam_assets a on a.id = (e.published ->> '${MEDIA_FIELD}')::uuid
 where e.type_id = ct.id and e.status = 'published' and e.domain_ids @> array[d.id]
 order by e.published_at desc, e.id
 limit $3 offset $4`;

/** Images get a thumbnail rendition (as server/storage/serve.ts `assetUrls`). */
const RASTER = /^image\/(jpeg|png|gif|webp|avif|svg\+xml)$/;

function floorServer(query: Query): FastifyInstance {
  const floor = Fastify({ logger: false });
  floor.get<{ Params: { domain: string; type: string }; Querystring: { page?: string; pageSize?: string } }>(
    "/floor/:domain/:type",
    async (request) => {
      const page = Number(request.query.page ?? 1);
      const pageSize = Number(request.query.pageSize ?? ENTRIES);
      const { rows } = await query(FLOOR_SQL, [
        request.params.domain,
        request.params.type,
        pageSize,
        (page - 1) * pageSize,
      ]);
      const data = rows.map((r) => {
        const entry: Record<string, unknown> = {
          id: r.id,
          ...(r.published as Record<string, unknown>),
          publishedAt: new Date(r.published_at as string).toISOString(),
        };
        if (r.media_id) {
          const url = `${ORIGIN}/assets/${r.storage_key}`;
          entry[MEDIA_FIELD] = {
            id: r.media_id,
            name: r.media_name,
            url,
            thumbnailUrl: RASTER.test(String(r.mime)) ? `${url}?w=${THUMBNAIL_WIDTH}&format=webp` : null,
            mime: r.mime,
            width: r.width,
            height: r.height,
            alt: r.alt,
          };
        } else if (entry[MEDIA_FIELD] !== undefined) entry[MEDIA_FIELD] = null;
        return entry;
      });
      return { data, total: rows.length ? rows[0].total : 0 };
    },
  );
  return floor;
}

export interface CmsFloorStart {
  /** postgres:// URL of the CMS side's database; null: a PGlite of the floor's own. */
  databaseUrl: string | null;
  /** PGlite only: keep it in memory rather than in a temp data dir. */
  inMemory: boolean;
  /** PGlite only: the rows of COPIED_TABLES, by table. */
  rows?: Record<string, unknown[]>;
}

export interface CmsFloorReady {
  url: string;
  where: string;
}

async function startFloor(
  start: CmsFloorStart,
): Promise<{ ready: CmsFloorReady; close: () => Promise<void> }> {
  const { query, where, pgliteDb, closers } = await openFloorDatabase(start);
  if (pgliteDb) {
    await copyRows(query, start.rows ?? {}, COPIED_TABLES);
    for (const table of COPIED_TABLES) await query(`vacuum analyze ${table}`, []);
  }
  const { url, close } = await listenFloor(floorServer(query), closers);
  return { ready: { url, where: pgliteDb ? `${where}, the same rows copied in` : where }, close };
}

export type CmsFloorProcess = ForkedServer<CmsFloorReady>;

export const startCmsFloor = (start: CmsFloorStart): Promise<CmsFloorProcess> =>
  ForkedServer.start<CmsFloorStart, CmsFloorReady>(import.meta.url, "--cms-floor-child", start);

if (process.argv[2] === "--cms-floor-child") serveForked(startFloor);
