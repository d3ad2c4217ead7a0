/**
 * A catalogue page's zoom size, made on demand (server/storage/on-demand.ts with the PDF zoom
 * source): not made by processing; made on the first request, once however many ask at the
 * same time (in one instance, and across two instances on one PostgreSQL database and bucket);
 * served from storage after; rate limited for callers without a session; and view-image.dll's
 * pdf-generate variant answering `{ success: false }` until it is made, then `{ success, data }`.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseZoomKey } from "../../server/modules/pdf/pdf.keys";
import { ZOOMS_PER_MINUTE } from "../../server/modules/pdf/zoom-pages";
import { onDemandOf } from "../../server/storage/on-demand";
import { makeCataloguePdf } from "../fixtures/make-pdf";
import { DRIVERS, sleep, startInstances, startServer, type TestServer } from "./harness";

interface Page {
  page: number;
  images: Record<"thumbnail" | "screen" | "zoom", string>;
}

/** Counts the zoom source's makes on a server (its real make runs; the count is all we add). */
function countMakes(s: TestServer, anyZoomKey: string): { count: number } {
  const source = onDemandOf(s.ctx).sourceFor(anyZoomKey);
  if (!source) throw new Error("no on-demand source for zoom keys");
  const counter = { count: 0 };
  const make = source.make.bind(source);
  source.make = (key, signal) => {
    counter.count++;
    return make(key, signal);
  };
  return counter;
}

async function uploadAndProcess(
  s: TestServer,
  token: string,
  pages: number,
): Promise<{ id: string; pages: Page[] }> {
  const form = new FormData();
  const pdf = await makeCataloguePdf({ pages, photos: false });
  form.append("file", new Blob([new Uint8Array(pdf)], { type: "application/pdf" }), "zoom.pdf");
  const res = await fetch(`${s.baseUrl}/api/pdfs`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  for (let i = 0; i < 1200; i++) {
    const row = await s.api<{ pdflist_status: string }>("GET", `/api/pdfs/${id}`, { token });
    if (row.body.pdflist_status === "ready") break;
    expect(row.body.pdflist_status).not.toBe("error");
    await sleep(100);
  }
  const listed = await s.api<{ data: Page[] }>("GET", `/api/pdfs/${id}/pages`, { token });
  expect(listed.body.data).toHaveLength(pages);
  return { id, pages: listed.body.data };
}

const keyOf = (url: string) => url.replace(/^\/assets\//, "");

describe.each(DRIVERS)("zoom pages on demand on %s", (driver) => {
  let s: TestServer;
  let token: string;
  let catalogue: { id: string; pages: Page[] };
  let makes: { count: number };

  beforeAll(async () => {
    s = await startServer(driver);
    token = (await s.signIn()).accessToken;
    catalogue = await uploadAndProcess(s, token, 4);
    makes = countMakes(s, keyOf(catalogue.pages[0].images.zoom));
  });
  afterAll(() => s?.close());

  it("is not made by processing, then made once for concurrent first requests and served from storage after", async () => {
    const url = catalogue.pages[0].images.zoom;
    const key = keyOf(url);
    expect(parseZoomKey(key)).toMatchObject({ pdfId: catalogue.id, version: 1, page: 1 });
    expect(await s.ctx.storage.head(key)).toBeNull();

    const answers = await Promise.all(Array.from({ length: 6 }, () => fetch(s.baseUrl + url)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((r) => r.headers.get("etag"))).size).toBe(1);
    const meta = await sharp(Buffer.from(await answers[0].arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 2400 });
    expect(makes.count).toBe(1);
    expect(await s.ctx.storage.head(key)).not.toBeNull();

    const again = await fetch(s.baseUrl + url, {
      headers: { "if-none-match": answers[0].headers.get("etag")! },
    });
    expect(again.status).toBe(304);
    expect((await fetch(s.baseUrl + url)).status).toBe(200);
    expect(makes.count).toBe(1);
    // The claim is gone once the image is made.
    const claims = await s.database.db.selectFrom("on_demand_claims").selectAll().execute();
    expect(claims).toEqual([]);
  });

  it("answers view-image.dll's pdf-generate variant with success false while the image is made, then its path", async () => {
    const before = makes.count;
    const ask = () =>
      s.api<{ success: boolean; data?: string }>(
        "GET",
        `/clients/view-image.dll?id=${catalogue.id}&count=2&imagesize=zoom&generate=true`,
        { token },
      );
    const first = await ask();
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ success: false });
    expect(first.headers.get("retry-after")).toBe("1");
    let answer = first;
    for (let i = 0; i < 300 && !answer.body.success; i++) {
      await sleep(100);
      answer = await ask();
    }
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ success: true, data: keyOf(catalogue.pages[1].images.zoom) });
    const image = await fetch(`${s.baseUrl}/assets/${answer.body.data}`);
    expect(image.status).toBe(200);
    expect(answer.headers.get("etag")).toBe(image.headers.get("etag"));
    expect(makes.count).toBe(before + 1);

    // Sizes processing made are there at once; the plain variant waits for a zoom image.
    const screen = await s.api(
      "GET",
      `/clients/view-image.dll?id=${catalogue.id}&count=3&imagesize=screen&generate=true`,
      {
        token,
      },
    );
    expect(screen.body).toEqual({ success: true, data: keyOf(catalogue.pages[2].images.screen) });
    const plain = await s.api("GET", `/clients/view-image.dll?id=${catalogue.id}&count=3&imagesize=zoom`, {
      token,
    });
    expect(plain.status).toBe(202);
    expect(plain.body).toEqual({ data: keyOf(catalogue.pages[2].images.zoom) });
    expect(plain.headers.get("etag")).toMatch(/^".+"$/);
    expect(makes.count).toBe(before + 2);
  });

  it("refuses zoom keys of pages or versions that do not exist", async () => {
    const url = catalogue.pages[0].images.zoom;
    expect((await fetch(s.baseUrl + url.replace("/v1/", "/v7/"))).status).toBe(404);
    expect((await fetch(s.baseUrl + url.replace("/p1-", "/p99-"))).status).toBe(404);
    const missing = await s.api(
      "GET",
      `/clients/view-image.dll?id=${catalogue.id}&count=99&imagesize=zoom&generate=true`,
      { token },
    );
    expect(missing.status).toBe(404);
  });

  it("limits the images an address without a session has made, never the ones already made", async () => {
    // This address has used up its minute (as ZOOMS_PER_MINUTE first zooms would).
    await s.database.db
      .insertInto("rate_limits")
      .values({ key: "on-demand:pdf-zoom:127.0.0.1", window_start: new Date(), count: ZOOMS_PER_MINUTE })
      .onConflict((oc) => oc.column("key").doUpdateSet({ count: ZOOMS_PER_MINUTE, window_start: new Date() }))
      .execute();
    const before = makes.count;
    const refused = await fetch(s.baseUrl + catalogue.pages[3].images.zoom);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toMatch(/try again in a minute/);
    expect((await fetch(s.baseUrl + catalogue.pages[0].images.zoom)).status).toBe(200);
    // A signed-in admin's view-image.dll is not limited.
    const admin = await s.api("GET", `/clients/view-image.dll?id=${catalogue.id}&count=4&imagesize=zoom`, {
      token,
    });
    expect(admin.status).toBe(202);
    expect(makes.count).toBe(before + 1);
  });
});

describe.runIf(DRIVERS.includes("postgres"))("zoom pages on two instances", () => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    [a, b] = await startInstances(2, {}, { storage: "s3" });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("makes a page's zoom image once when both instances are asked at the same time", async () => {
    const token = (await a.signIn()).accessToken;
    const catalogue = await uploadAndProcess(a, token, 2);
    const url = catalogue.pages[1].images.zoom;
    const onA = countMakes(a, keyOf(url));
    const onB = countMakes(b, keyOf(url));
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => fetch((i % 2 ? b : a).baseUrl + url)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((r) => r.headers.get("etag"))).size).toBe(1);
    expect(onA.count + onB.count).toBe(1);
  });
});
