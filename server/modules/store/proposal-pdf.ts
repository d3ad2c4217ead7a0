/**
 * A proposal as a PDF (issue 18): its number, client, lines (SKU, name, unit price, quantity,
 * discount, amount), the subtotal, discounts and total, and its status — real text drawn with
 * pdf-lib's standard fonts, so it can be searched and copied. Standard fonts speak WinAnsi
 * only: other characters are written as "?" rather than failing the document.
 */
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import { formatMinor } from "../../../schemas/money";
import { discountWords } from "../../../schemas/proposal-lines";
import { DISCOUNT_OPTION_LABELS, type DiscountOption, listPriceMinor } from "../../../schemas/proposal-money";
import { PROPOSAL_STATUS_LABELS, type ProposalStatus } from "../../../schemas/proposals";
import type { ProposalView } from "./proposals.service";

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const GREY = rgb(0.35, 0.35, 0.35);

/** Text the standard fonts can draw: printable Latin-1, the rest as "?". */
const safe = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, "?");

/** Cuts `text` to fit `width` points at `size`, with "..." when cut. */
function fitted(font: PDFFont, text: string, size: number, width: number): string {
  let t = safe(text);
  if (font.widthOfTextAtSize(t, size) <= width) return t;
  while (t.length > 1 && font.widthOfTextAtSize(`${t}...`, size) > width) t = t.slice(0, -1);
  return `${t}...`;
}

export async function proposalPdf(view: ProposalView): Promise<Uint8Array> {
  const { proposal, lines, totals } = view;
  const currency = proposal.currency;
  const doc = await PDFDocument.create();
  doc.setTitle(safe(`Proposal ${proposal.number ?? ""} ${proposal.title}`));
  doc.setProducer("Atelier");
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  const text = (t: string, x: number, size = 10, f = font, color = rgb(0, 0, 0)) =>
    page.drawText(safe(t), { x, y, size, font: f, color });
  const right = (t: string, xRight: number, size = 10, f = font) =>
    page.drawText(safe(t), { x: xRight - f.widthOfTextAtSize(safe(t), size), y, size, font: f });
  const newLine = (h: number) => {
    y -= h;
    if (y < MARGIN + 40) {
      page = doc.addPage(A4);
      y = A4[1] - MARGIN;
    }
  };

  text(`Proposal ${proposal.number ?? ""}`, MARGIN, 20, bold);
  newLine(26);
  text(fitted(font, String(proposal.title), 13, A4[0] - 2 * MARGIN), MARGIN, 13);
  newLine(22);
  const status = PROPOSAL_STATUS_LABELS[proposal.status as ProposalStatus] ?? String(proposal.status);
  const facts = [
    `Client: ${view.clientName ?? "-"}`,
    `Status: ${status}`,
    `Currency: ${currency}`,
    `Discount: ${DISCOUNT_OPTION_LABELS[Number(proposal.discount_option) as DiscountOption]}`,
    proposal.valid_until
      ? `Valid until: ${String(proposal.valid_until).split("-").reverse().join("-")}`
      : null,
  ].filter((f): f is string => f !== null);
  for (const fact of facts) {
    text(fact, MARGIN, 10, font, GREY);
    newLine(14);
  }
  newLine(10);

  const cols = { sku: MARGIN, name: MARGIN + 80, unit: 330, qty: 380, disc: 460, amount: A4[0] - MARGIN };
  const header = () => {
    text("SKU", cols.sku, 9, bold);
    text("Product", cols.name, 9, bold);
    right("Unit price", cols.unit + 30, 9, bold);
    right("Qty", cols.qty + 20, 9, bold);
    right("Discount", cols.disc + 20, 9, bold);
    right("Amount", cols.amount, 9, bold);
    newLine(6);
    page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 0.5, color: GREY });
    newLine(14);
  };
  header();
  lines.forEach((line, i) => {
    const t = totals.lines[i];
    text(fitted(font, line.sku, 9, 76), cols.sku, 9);
    text(fitted(font, line.name, 9, 165), cols.name, 9);
    right(formatMinor(t.unitMinor, currency), cols.unit + 30, 9);
    right(String(t.quantity), cols.qty + 20, 9);
    right(
      t.discountMinor ? discountWords(line.discount_kind, line.discount_value, currency, formatMinor) : "",
      cols.disc + 20,
      9,
    );
    right(formatMinor(t.netMinor, currency), cols.amount, 9);
    newLine(15);
  });
  if (!lines.length) {
    text("No products yet", cols.name, 9, font, GREY);
    newLine(15);
  }
  newLine(8);
  const gross = listPriceMinor(totals);
  const rows: [string, string, boolean][] = [
    ["Subtotal", formatMinor(gross, currency), false],
    ["Discounts", formatMinor(totals.discountMinor, currency), false],
    ["Total", formatMinor(totals.totalMinor, currency), true],
  ];
  for (const [label, value, strong] of rows) {
    right(label, cols.disc + 20, strong ? 12 : 10, strong ? bold : font);
    right(value, cols.amount, strong ? 12 : 10, strong ? bold : font);
    newLine(18);
  }
  if (proposal.notes) {
    newLine(10);
    for (const para of String(proposal.notes).split("\n").slice(0, 40)) {
      text(fitted(font, para, 9, A4[0] - 2 * MARGIN), MARGIN, 9, font, GREY);
      newLine(13);
    }
  }
  // Text streams stay readable (uncompressed objects), so the figures can be found in the file.
  return doc.save({ useObjectStreams: false });
}
