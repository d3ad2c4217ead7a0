/**
 * The PDF renderers on real files with the real tools: poppler's command line tools and
 * pdf.js on @napi-rs/canvas. Same checks for both: page sizes (a page turned a quarter
 * included), images at the requested widths and formats (the largest rasterised, the others
 * derived from it), words with boxes where they were written, and password-protected or
 * damaged files ending in a PdfError with the tool's own words as its detail.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { degrees, PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chooseRenderer,
  createNativeRenderer,
  createPdfjsRenderer,
  PAGE_WIDTHS,
  type PageImageSpec,
  type PageImages,
  PdfError,
  type PdfRenderer,
  planRanges,
  popplerAvailable,
} from "../../server/modules/pdf/render";
import { runTool } from "../../server/modules/pdf/render/run-tool";
import { toolHostPid } from "../../server/modules/pdf/render/tool-host";
import {
  A4,
  catalogueHeading,
  makeCataloguePdf,
  makeCorruptPdf,
  makeEncryptedPdf,
  SKU_FONT_SIZE,
  type SkuPlacement,
} from "../fixtures/make-pdf";

const SKUS: SkuPlacement[] = [
  { page: 2, code: "AT-1042", x: 0.6, y: 0.3 },
  { page: 4, code: "ZX-77-B", x: 0.1, y: 0.85 },
];
const ROTATED_PAGE = 3;
/** Processing's sizes (screen JPEG, thumbnail WebP from it) and the zoom size's WebP. */
const SPECS: PageImageSpec[] = [
  { width: PAGE_WIDTHS.thumbnail, format: "webp" },
  { width: PAGE_WIDTHS.screen, format: "jpeg" },
];
const ZOOM: PageImageSpec[] = [{ width: PAGE_WIDTHS.zoom, format: "webp" }];
const SMALL: PageImageSpec[] = [{ width: 320, format: "webp" }];

let dir: string;
const files = { catalogue: "", encrypted: "", corrupt: "" };

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "atelier-pdf-test-"));
  // Page 3 turned a quarter clockwise, as scanners and landscape spreads leave them.
  const doc = await PDFDocument.load(await makeCataloguePdf({ pages: 4, skus: SKUS }));
  doc.getPage(ROTATED_PAGE - 1).setRotation(degrees(90));
  const write = (name: string, data: Uint8Array) => {
    const file = path.join(dir, name);
    writeFileSync(file, data);
    return file;
  };
  files.catalogue = write("catalogue.pdf", await doc.save());
  files.encrypted = write("encrypted.pdf", makeEncryptedPdf());
  files.corrupt = write("corrupt.pdf", makeCorruptPdf());
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("planRanges", () => {
  it("shares pages in contiguous ranges, one process each", () => {
    expect(planRanges([1, 2, 3, 4, 5, 6], 2)).toEqual([
      { first: 1, last: 3 },
      { first: 4, last: 6 },
    ]);
    expect(planRanges([9, 1, 2, 2, 3, 4, 5], 2)).toEqual([
      { first: 1, last: 3 },
      { first: 4, last: 5 },
      { first: 9, last: 9 },
    ]);
    expect(planRanges([], 4)).toEqual([]);
    expect(() => planRanges([0], 2)).toThrow(RangeError);
  });
});

const RENDERERS: [string, () => PdfRenderer][] = [
  ["native", () => createNativeRenderer()],
  ["pdfjs", () => createPdfjsRenderer()],
];

describe.each(RENDERERS)("%s renderer", (name, create) => {
  const renderer = create();

  it("is named", () => expect(renderer.name).toBe(name));

  it("reads the page count and displayed page sizes", async () => {
    const info = await renderer.info(files.catalogue);
    expect(info.pages).toBe(4);
    const portrait = { width: expect.closeTo(A4.width, 1), height: expect.closeTo(A4.height, 1) };
    const landscape = { width: portrait.height, height: portrait.width };
    expect(info.sizes).toEqual([portrait, portrait, landscape, portrait]);
  });

  it("renders every page once at screen width (JPEG) with a WebP thumbnail from it, one call per page", async () => {
    const seen = new Map<number, PageImages>();
    await renderer.renderPages(files.catalogue, [4, 1, 2, 3], SPECS, async (page, images) => {
      expect(seen.has(page)).toBe(false);
      seen.set(page, images);
    });
    expect([...seen.keys()].sort()).toEqual([1, 2, 3, 4]);
    for (const [page, images] of seen) {
      expect([...images.keys()].sort((a, b) => a - b)).toEqual([PAGE_WIDTHS.thumbnail, PAGE_WIDTHS.screen]);
      for (const { width, format } of SPECS) {
        const meta = await sharp(images.get(width)!).metadata();
        expect(meta.format).toBe(format);
        expect(meta.width).toBe(width);
        const ratio = page === ROTATED_PAGE ? A4.width / A4.height : A4.height / A4.width;
        expect(meta.height).toBeCloseTo(width * ratio, -1);
      }
    }
    // Not a blank page: the dark heading band and white paper are both there.
    const { channels } = await sharp(seen.get(1)!.get(PAGE_WIDTHS.thumbnail)!).stats();
    expect(Math.min(...channels.map((c) => c.min))).toBeLessThan(60);
    expect(Math.max(...channels.map((c) => c.max))).toBeGreaterThan(240);
  });

  it("renders one page at zoom width to WebP", async () => {
    const seen: number[] = [];
    await renderer.renderPages(files.catalogue, [2], ZOOM, async (page, images) => {
      seen.push(page);
      const meta = await sharp(images.get(PAGE_WIDTHS.zoom)!).metadata();
      expect(meta).toMatchObject({ format: "webp", width: PAGE_WIDTHS.zoom });
    });
    expect(seen).toEqual([2]);
  });

  it("extracts each page's text and words with boxes where they were written", async () => {
    const text = await renderer.text(files.catalogue, [1, 2, 3, 4]);
    expect([...text.keys()]).toEqual([1, 2, 3, 4]);
    for (const [page, { text: pageText, words }] of text) {
      expect(pageText).toContain(catalogueHeading(page));
      expect(words.length).toBeGreaterThan(50);
      for (const word of words) {
        expect(word.text.trim()).toBe(word.text);
        expect(word.x).toBeGreaterThanOrEqual(0);
        expect(word.y).toBeGreaterThanOrEqual(0);
        expect(word.x + word.w).toBeLessThanOrEqual(1.00001);
        expect(word.y + word.h).toBeLessThanOrEqual(1.00001);
        expect(word.w).toBeGreaterThan(0);
        expect(word.h).toBeGreaterThan(0);
      }
    }
    for (const sku of SKUS) {
      const word = text.get(sku.page)!.words.find((w) => w.text === sku.code);
      expect(word, sku.code).toBeDefined();
      expect(word!.x).toBeCloseTo(sku.x, 2);
      expect(Math.abs(word!.y - sku.y)).toBeLessThan(0.006);
      expect(word!.h).toBeGreaterThan((SKU_FONT_SIZE * 0.8) / A4.height);
      expect(word!.h).toBeLessThan((SKU_FONT_SIZE * 1.4) / A4.height);
    }
    // On the turned page the heading runs down the right-hand edge.
    const heading = text.get(ROTATED_PAGE)!.words.find((w) => w.text === "catalogue")!;
    expect(heading.x).toBeGreaterThan(0.85);
    expect(heading.h).toBeGreaterThan(heading.w);
  });

  it("rejects a password-protected PDF as encrypted", async () => {
    const encrypted = { name: "PdfError", code: "encrypted" };
    await expect(renderer.info(files.encrypted)).rejects.toMatchObject(encrypted);
    await expect(renderer.renderPages(files.encrypted, [1], SMALL, async () => {})).rejects.toMatchObject(
      encrypted,
    );
    await expect(renderer.text(files.encrypted, [1])).rejects.toMatchObject(encrypted);
    await expect(renderer.info(files.encrypted)).rejects.toThrow(
      "This PDF is protected by a password; upload a copy without one",
    );
  });

  it("rejects a damaged file as corrupt", async () => {
    const corrupt = { name: "PdfError", code: "corrupt" };
    await expect(renderer.info(files.corrupt)).rejects.toBeInstanceOf(PdfError);
    await expect(renderer.info(files.corrupt)).rejects.toMatchObject(corrupt);
    await expect(renderer.renderPages(files.corrupt, [1], SMALL, async () => {})).rejects.toMatchObject(
      corrupt,
    );
    await expect(renderer.text(files.corrupt, [1])).rejects.toMatchObject(corrupt);
    // The message in plain words; what the tool said is kept apart, as the detail.
    const error = (await renderer.info(files.corrupt).catch((e: unknown) => e)) as PdfError;
    expect(error.message).toBe("This PDF is damaged and could not be read");
    expect(error.detail).toMatch(name === "native" ? /^pdfinfo: .*\S/ : /^pdf\.js: .*\S/);
    expect(error.message).not.toContain(error.detail!);
  });

  it("stops on an abort or a failing onPage, with that reason", async () => {
    const controller = new AbortController();
    const pages: number[] = [];
    const aborted = renderer.renderPages(
      files.catalogue,
      [1, 2, 3, 4],
      SMALL,
      async (page) => {
        pages.push(page);
        controller.abort();
      },
      controller.signal,
    );
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
    expect(pages.length).toBeLessThan(4);
    const failing = renderer.renderPages(files.catalogue, [1, 2], SMALL, async () => {
      throw new Error("storage is down");
    });
    await expect(failing).rejects.toThrow("storage is down");
  });

  it("refuses pages the PDF does not have", async () => {
    await expect(renderer.text(files.catalogue, [5])).rejects.toBeInstanceOf(RangeError);
    await expect(renderer.renderPages(files.catalogue, [0], SMALL, async () => {})).rejects.toBeInstanceOf(
      RangeError,
    );
  });
});

describe("deadlines", () => {
  it("kills a tool that stays silent, and ends a pdf.js thread that does not answer", async () => {
    const timeout = { name: "PdfError", code: "timeout" };
    const started = Date.now();
    await expect(runTool("sleep", ["30"], { idleMs: 300 })).rejects.toMatchObject(timeout);
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(createPdfjsRenderer({ idleMs: 1 }).info(files.catalogue)).rejects.toMatchObject(timeout);
  });
});

describe("the tool host", () => {
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it("runs a tool with its output and exit code, and refuses one that does not exist", async () => {
    const said = await runTool("sh", ["-c", "printf 'out'; printf 'err' >&2"], {
      idleMs: 5000,
      stdout: true,
    });
    expect(said).toEqual({ stdout: "out", stderr: "err" });
    const lines: string[] = [];
    await runTool("sh", ["-c", "echo '1 2 a' >&2; printf '2 2 b' >&2"], {
      idleMs: 5000,
      onStderrLine: (line) => lines.push(line),
    });
    expect(lines).toEqual(["1 2 a", "2 2 b"]);
    await expect(
      runTool("sh", ["-c", "echo 'Syntax Error' >&2; exit 1"], { idleMs: 5000 }),
    ).rejects.toMatchObject({ name: "PdfError", code: "corrupt", detail: "sh: Syntax Error" });
    await expect(runTool("/nonexistent/pdftoppm", [], { idleMs: 5000 })).rejects.toMatchObject({
      code: "ENOENT",
    });
    expect((await runTool("echo", ["still here"], { idleMs: 5000, stdout: true })).stdout).toBe(
      "still here\n",
    );
  });

  it("ends the tools of a host that died with an error, and starts a new host for the next", async () => {
    const running = runTool("sleep", ["30"], { idleMs: 60_000 });
    await expect.poll(() => toolHostPid()).toBeDefined();
    const pid = toolHostPid() as number;
    process.kill(pid, "SIGKILL");
    await expect(running).rejects.toThrow(/tool host exited/);
    await expect.poll(() => alive(pid)).toBe(false);
    expect((await runTool("echo", ["again"], { idleMs: 5000, stdout: true })).stdout).toBe("again\n");
    expect(toolHostPid()).not.toBe(pid);
  });
});

describe("chooseRenderer", () => {
  it("prefers poppler when it is installed, and obeys PDF_RENDERER", async () => {
    const expected = (await popplerAvailable()) ? "native" : "pdfjs";
    expect((await chooseRenderer({})).name).toBe(expected);
    expect((await chooseRenderer({ PDF_RENDERER: "pdfjs" })).name).toBe("pdfjs");
    await expect(chooseRenderer({ PDF_RENDERER: "mupdf" })).rejects.toThrow(/native, pdfjs/);
    expect(await popplerAvailable("/nonexistent")).toBe(false);
  });
});
