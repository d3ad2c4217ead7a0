/**
 * One side-by-side setup of the CMS public API bench (bench/cms-public.ts): the real app on
 * the driver's database (resource-engine-setup.ts `startApp`, with a temp DATA_DIR for the
 * uploads), the content made through its admin API, the floor in its own process, a probe of
 * both answers, the current ETag, and the statements one CMS request sends.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import sharp from "sharp";
import type { Cleanup } from "./bench-run";
import {
  type CmsFloorProcess,
  COPIED_TABLES,
  cmsPath,
  DOMAIN_KEY,
  ENTRIES,
  floorPath,
  MEDIA_FIELD,
  ORIGIN,
  startCmsFloor,
  TYPE,
} from "./cms-public-floor";
import { captureStatements } from "./resource-engine-capture";
import { exportRows } from "./resource-engine-floor";
import { type Driver, PGLITE_IN_MEMORY } from "./resource-engine-settings";
import { signIn, startApp } from "./resource-engine-setup";

/** Both sides of one driver, ready to be loaded. */
export interface CmsSides {
  cmsUrl: string;
  floor: CmsFloorProcess;
  floorUrl: string;
  /** When the floor's process was forked, in seconds of this process's uptime (for --cpu-prof windows). */
  floorForkedAt: number;
  postmasterPid: number | null;
  /** The ETag of the CMS list as it is (the 304 case sends it). */
  etag: string;
  /** Size of the full answer of each side, bytes. */
  bytes: { cms: number; floor: number };
}

/** Calls the admin API with a bearer token; throws on a status of 300 or more. */
export type Api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => Promise<T>;

export function apiOf(url: string, token: string): Api {
  return async (method, path, body) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : {}) as never;
  };
}

/** A small PNG of its own colour per entry, uploaded to the media library (the DAM's CMS folder). */
async function uploadImage(url: string, token: string, i: number): Promise<string> {
  const png = await sharp({
    create: {
      width: 64,
      height: 48,
      channels: 3,
      background: { r: (i * 37) % 256, g: (i * 91) % 256, b: 128 },
    },
  })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), `cover-${i + 1}.png`);
  const res = await fetch(`${url}/cms/media`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: Array<{ id: string }> }).data[0].id;
}

const BODY =
  "<h2>Spring collection</h2><p>Linen shirts, light jackets and <strong>new colours</strong> for the season, " +
  'made in small runs. <a href="https://shop.example.com/spring">See the range</a>.</p>' +
  "<ul><li>Free returns for 30 days</li><li>Delivery in 2 to 4 days</li></ul>";

/**
 * Through the admin API: a domain, a component (`hero`) and the collection TYPE using it, with
 * a media field; the domain's id. Shared with the engine bench's CMS entries list
 * (bench/module-lists-setup.ts).
 */
export async function makeArticleType(api: Api): Promise<{ domainId: string }> {
  const domain = await api<{ id: string }>("POST", "/cms/domains", { key: DOMAIN_KEY, name: "Bench" });
  await api("POST", "/cms/content-types", {
    kind: "component",
    apiName: "hero",
    name: "Hero",
    properties: {
      headline: { "x-kind": "text", title: "Headline" },
      text: { "x-kind": "longtext", title: "Text" },
      label: { "x-kind": "text", title: "Button label" },
      href: { "x-kind": "url", title: "Button link" },
    },
    required: ["headline"],
  });
  await api("POST", "/cms/content-types", {
    kind: "collection",
    apiName: TYPE,
    name: "Article",
    required: ["title"],
    properties: {
      title: { "x-kind": "text", title: "Title", maxLength: 120 },
      slug: { "x-kind": "slug", title: "Slug", "x-slugFrom": "title" },
      summary: { "x-kind": "longtext", title: "Summary" },
      body: { "x-kind": "richtext", title: "Body" },
      rating: { "x-kind": "integer", title: "Rating", minimum: 1, maximum: 5 },
      [MEDIA_FIELD]: { "x-kind": "media", title: "Cover" },
      hero: { "x-kind": "component", title: "Hero", "x-component": "hero" },
    },
  });
  return { domainId: domain.id };
}

/** Through the admin API: the type (makeArticleType), then ENTRIES published entries, each with its image. */
export async function seedContent(url: string, token: string): Promise<void> {
  const api = apiOf(url, token);
  const { domainId } = await makeArticleType(api);
  for (let i = 0; i < ENTRIES; i++) {
    const media = await uploadImage(url, token, i);
    await api("PATCH", `/cms/media/${media}`, { alt: `Cover of article ${i + 1}`, caption: "Spring" });
    const entry = await api<{ id: string }>("POST", `/cms/entries/${TYPE}`, {
      title: `Article number ${i + 1} of the spring collection`,
      summary: `What is new this spring, part ${i + 1}: fabrics, colours and the pieces to start with.`,
      body: BODY,
      rating: (i % 5) + 1,
      [MEDIA_FIELD]: media,
      hero: {
        headline: `Spring, part ${i + 1}`,
        text: "New pieces every week until June.",
        label: "Shop now",
        href: `https://shop.example.com/spring/${i + 1}`,
      },
      domain_ids: [domainId],
    });
    await api("POST", `/cms/entries/${TYPE}/${entry.id}/publish`, {});
  }
}

/** Starts both sides for `driver`, registering their cleanups; null when the driver is unavailable. */
export async function startCmsSides(driver: Driver, cleanups: Cleanup[]): Promise<CmsSides | null> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-bench-cms-data-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const started = await startApp(driver, cleanups, { DATA_DIR: dataDir, PUBLIC_URL: ORIGIN });
  if (!started) return null;
  const { url: cmsUrl, database, databaseUrl, postmasterPid, where } = started;
  const token = await signIn(cmsUrl);

  const tSeed = Date.now();
  await seedContent(cmsUrl, token);
  for (const table of COPIED_TABLES) await sql`vacuum analyze ${sql.table(table)}`.execute(database.db);
  const seedSeconds = (Date.now() - tSeed) / 1000;

  const tFloor = Date.now();
  const floorForkedAt = process.uptime();
  const floor = await startCmsFloor({
    databaseUrl,
    inMemory: PGLITE_IN_MEMORY,
    rows: databaseUrl ? undefined : await exportRows(database.db, COPIED_TABLES),
  });
  cleanups.unshift(() => floor.stop());
  const floorSeconds = (Date.now() - tFloor) / 1000;
  const floorUrl = floor.ready.url;

  // A probe through each side: both answer the same bytes, or the comparison is not fair.
  const cmsRes = await fetch(`${cmsUrl}${cmsPath}`, { headers: { "accept-encoding": "identity" } });
  const cmsText = await cmsRes.text();
  const etag = cmsRes.headers.get("etag") ?? "";
  const floorText = await (await fetch(`${floorUrl}${floorPath}`)).text();
  const cmsBody = JSON.parse(cmsText) as { data: Array<Record<string, unknown>>; total: number };
  const floorBody = JSON.parse(floorText) as { data: unknown[]; total: number };
  const first = cmsBody.data[0] ?? {};
  const populated =
    typeof first[MEDIA_FIELD] === "object" && first[MEDIA_FIELD] !== null && typeof first.hero === "object";
  const same = cmsText === floorText;
  const at = [...cmsText].findIndex((c, i) => c !== floorText[i]);

  console.log(`\n=== ${driver}: ${where}`);
  console.log(
    `made through the admin API in ${seedSeconds.toFixed(1)} s: a domain, a component, a type, ${ENTRIES} images, ` +
      `${ENTRIES} published entries (then vacuum analyze); floor ready in ${floorSeconds.toFixed(1)} s: ${floor.ready.where}`,
  );
  console.log(
    `probe: CMS ${cmsRes.status}, ${cmsBody.data.length} entries of total ${cmsBody.total}, ${Buffer.byteLength(cmsText)} bytes, ` +
      `component and media populated: ${populated ? "yes" : "NO"}, ETag ${etag}; floor ${floorBody.data.length} of ` +
      `total ${floorBody.total}, ${Buffer.byteLength(floorText)} bytes; same JSON: ${same ? "yes" : `NO (differs at ${at}: ${JSON.stringify(cmsText.slice(at, at + 60))} vs ${JSON.stringify(floorText.slice(at, at + 60))})`}`,
  );

  const capture = captureStatements();
  const status = (await fetch(`${cmsUrl}${cmsPath}`, { headers: { "if-none-match": etag } })).status;
  const statements = capture.stop();
  console.log(
    `CMS statements for one request (${status} with the ETag; the floor sends one): ${statements.length}`,
  );
  for (const s of statements) console.log(`    ${s.length > 150 ? `${s.slice(0, 147)}...` : s}`);

  return {
    cmsUrl,
    floor,
    floorUrl,
    floorForkedAt,
    postmasterPid,
    etag,
    bytes: { cms: Buffer.byteLength(cmsText), floor: Buffer.byteLength(floorText) },
  };
}
