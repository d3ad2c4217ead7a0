/** Parsers for what pdfinfo and `pdftotext -bbox-layout` print. */
import { PdfError } from "./pdf-error";
import type { PageText, PageWord, PdfInfo } from "./types";

/**
 * `pdfinfo -f 1 -l N` output to page count and displayed page sizes: a page turned a quarter
 * (`rot: 90`) shows its box sideways, so its width and height swap.
 */
export function parsePdfInfo(output: string): PdfInfo {
  const count = /^Pages:\s+(\d+)\s*$/m.exec(output);
  if (!count) throw new PdfError("corrupt", "pdfinfo found no page count");
  const pages = Number(count[1]);
  if (pages < 1) throw new PdfError("corrupt", "the PDF has no pages");
  const sizes: PdfInfo["sizes"] = [];
  for (const match of output.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+) pts/gm)) {
    sizes[Number(match[1]) - 1] = { width: Number(match[2]), height: Number(match[3]) };
  }
  for (const match of output.matchAll(/^Page\s+(\d+) rot:\s+(\d+)/gm)) {
    const size = sizes[Number(match[1]) - 1];
    if (size && Number(match[2]) % 180 === 90)
      sizes[Number(match[1]) - 1] = { width: size.height, height: size.width };
  }
  if (sizes.length !== pages || sizes.some((size) => !size)) {
    throw new PdfError("corrupt", `pdfinfo listed ${sizes.length} page sizes for ${pages} pages`);
  }
  return { pages, sizes };
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] !== "#") return ENTITIES[name] ?? whole;
    const code =
      name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const round = (n: number) => Math.round(n * 1e5) / 1e5;
const clamp = (n: number) => Math.min(1, Math.max(0, n));

/**
 * The XHTML of `pdftotext -bbox-layout -f first -l last`: one `<page>` per page, in order,
 * holding blocks of lines of words with boxes in points from the top-left corner. The boxes
 * are on the displayed page but `<page>` gives the unrotated size, so a turned page needs
 * `sizes` (from pdfinfo) to scale them.
 */
export function parseBboxLayout(
  xhtml: string,
  firstPage: number,
  sizes?: PdfInfo["sizes"],
): Map<number, PageText> {
  const result = new Map<number, PageText>();
  const pageRe = /<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g;
  let page = firstPage;
  for (const [, pageWidth, pageHeight, body] of xhtml.matchAll(pageRe)) {
    const width = sizes?.[page - 1]?.width ?? Number(pageWidth);
    const height = sizes?.[page - 1]?.height ?? Number(pageHeight);
    const words: PageWord[] = [];
    const blocks: string[] = [];
    for (const [block] of body.matchAll(/<block[\s\S]*?<\/block>/g)) {
      const lines: string[] = [];
      for (const [line] of block.matchAll(/<line[\s\S]*?<\/line>/g)) {
        const lineWords: string[] = [];
        const wordRe =
          /<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g;
        for (const [, xMin, yMin, xMax, yMax, raw] of line.matchAll(wordRe)) {
          const text = unescapeXml(raw);
          const x = clamp(Number(xMin) / width);
          const y = clamp(Number(yMin) / height);
          words.push({
            text,
            x: round(x),
            y: round(y),
            w: round(clamp(Number(xMax) / width) - x),
            h: round(clamp(Number(yMax) / height) - y),
          });
          lineWords.push(text);
        }
        if (lineWords.length) lines.push(lineWords.join(" "));
      }
      if (lines.length) blocks.push(lines.join("\n"));
    }
    result.set(page++, { text: blocks.join("\n\n"), words });
  }
  return result;
}
