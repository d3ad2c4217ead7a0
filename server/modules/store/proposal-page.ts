/**
 * The client's page of a proposal (`/public/proposals/{token}`), rendered on the server as a
 * light page that works without JavaScript: the lines, the totals, and Accept / Decline as
 * plain form posts. One small inline script (allowed by its hash) asks before declining.
 */
import { formatMinorMoney } from "../../../schemas/money";
import { discountWords } from "../../../schemas/proposal-lines";
import { listPriceMinor } from "../../../schemas/proposal-money";
import { PROPOSAL_STATUS_LABELS, type ProposalStatus } from "../../../schemas/proposals";
import { escapeHtml as e } from "../../../src/forms-public/html";
import type { ProposalView } from "./proposals.service";

/** Asks before a decline: the one thing on the page that cannot be undone by the client. */
export const CONFIRM_SCRIPT =
  'document.getElementById("decline").addEventListener("submit",function(ev){if(!confirm("Decline this proposal? You cannot change your answer afterwards."))ev.preventDefault();});';

const STYLE = `
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f5f5f5;color:#1f1f1f}
main{max-width:860px;margin:0 auto;padding:24px 16px}
.card{background:#fff;border-radius:8px;padding:24px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{font-size:24px;margin:0 0 4px}.muted{color:#595959}
table{width:100%;border-collapse:collapse;margin:16px 0}th,td{padding:8px;border-bottom:1px solid #eee;text-align:left}
td.n,th.n{text-align:right;white-space:nowrap}tfoot td{border:none}.total td{font-weight:700;font-size:18px}
.status{display:inline-block;padding:2px 10px;border-radius:12px;background:#e6f4ff;color:#0958d9;font-size:14px}
.actions{display:flex;gap:12px;flex-wrap:wrap;margin-top:16px}form{margin:0}
button{font:inherit;padding:10px 22px;border-radius:6px;border:1px solid #d9d9d9;background:#fff;cursor:pointer}
button.primary{background:#0958d9;border-color:#0958d9;color:#fff}button:focus-visible{outline:3px solid #91caff;outline-offset:2px}
.note{white-space:pre-wrap}.answer{margin-top:16px;padding:12px;border-radius:6px;background:#f6ffed;border:1px solid #b7eb8f}
.answer.bad{background:#fff2f0;border-color:#ffccc7}
`;

export interface PageState {
  /** What the page says above its buttons: after an answer, or why none can be given. */
  message?: { text: string; bad?: boolean };
}

export function renderProposalPage(view: ProposalView, token: string, state: PageState = {}): string {
  const { proposal, lines, totals } = view;
  const currency = proposal.currency;
  const money = (minor: number) => e(formatMinorMoney(minor, currency));
  const status = proposal.status as ProposalStatus;
  const rows = lines
    .map((line, i) => {
      const t = totals.lines[i];
      const discount = t.discountMinor
        ? discountWords(line.discount_kind, line.discount_value, currency)
        : "";
      return `<tr><td>${e(line.name)}<div class="muted">${e(line.sku)}</div></td><td class="n">${money(t.unitMinor)}</td><td class="n">${t.quantity}</td><td class="n">${e(discount)}</td><td class="n">${money(t.netMinor)}</td></tr>`;
    })
    .join("");
  const gross = listPriceMinor(totals);
  const base = `/public/proposals/${encodeURIComponent(token)}`;
  const actions =
    status === "sent"
      ? `<div class="actions"><form method="post" action="${base}/accept"><button class="primary" type="submit">Accept</button></form><form id="decline" method="post" action="${base}/decline"><button type="submit">Decline</button></form></div>`
      : "";
  const message = state.message
    ? `<div class="answer${state.message.bad ? " bad" : ""}" role="status">${e(state.message.text)}</div>`
    : "";
  const validUntil = proposal.valid_until
    ? `<p class="muted">Valid until ${e(String(proposal.valid_until).split("-").reverse().join("-"))}</p>`
    : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><link rel="icon" type="image/svg+xml" href="/manage/images/logo.svg"><title>${e(`Proposal ${proposal.number ?? ""}: ${proposal.title}`)}</title><style>${STYLE}</style></head><body><main><div class="card">
<p class="muted">Proposal ${e(proposal.number ?? "")}${view.clientName ? ` for ${e(view.clientName)}` : ""}</p>
<h1>${e(proposal.title)}</h1>
<p><span class="status">${e(PROPOSAL_STATUS_LABELS[status] ?? status)}</span></p>${validUntil}
<table><thead><tr><th scope="col">Product</th><th scope="col" class="n">Unit price</th><th scope="col" class="n">Quantity</th><th scope="col" class="n">Discount</th><th scope="col" class="n">Amount</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><td colspan="4" class="n">Subtotal</td><td class="n">${money(gross)}</td></tr><tr><td colspan="4" class="n">Discounts</td><td class="n">${money(totals.discountMinor)}</td></tr><tr class="total"><td colspan="4" class="n">Total</td><td class="n" data-total>${money(totals.totalMinor)}</td></tr></tfoot></table>
${proposal.notes ? `<p class="note">${e(proposal.notes)}</p>` : ""}${message}${actions}
</div></main>${status === "sent" ? `<script>${CONFIRM_SCRIPT}</script>` : ""}</body></html>`;
}
