/**
 * Proposals' life beyond the engine's CRUD (issue 18): their lines (products read from the
 * catalogue, one currency), sending (the share link, a mail to the client if asked), and the
 * client's answer on the public link. Accepting marks the proposal, wins the client's
 * opportunity (through the opportunities' own rules), writes the timeline and raises the
 * "proposal accepted" automation trigger, all in one transaction.
 */
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import type { Currency } from "../../../schemas/money";
import type { ProposalLine, ProposalLineBody } from "../../../schemas/proposal-lines";
import { DISCOUNT_OPTIONS, type ProposalTotals } from "../../../schemas/proposal-money";
import { type ProposalStatus, proposalSchema } from "../../../schemas/proposals";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { badRequest, conflict, HttpError, notFound } from "../../http/errors";
import { toRecord } from "../../resources/records";
import type { AnyDb } from "../../resources/rules";
import { proposalAccepted } from "../automation/store-events";
import { addTimeline, timelineChanged } from "../crm/timeline";
import { NOT_A_DRAFT } from "./proposal.rules";
import { linesOf, moneyOf, refusal, storedTotals, totalsOrRefuse } from "./proposal-money.service";
import { proposalAnswered } from "./proposal-notices";
import { winOpportunity } from "./proposal-opportunity";

type Db = import("kysely").Kysely<Database> | import("kysely").Transaction<Database>;

/** A proposal with its lines and money, as the PDF, the cart and the public page use it. */
export interface ProposalView {
  proposal: Record<string, unknown> & { id: string; title: string; currency: Currency };
  lines: ProposalLine[];
  totals: ProposalTotals;
  clientName: string | null;
}

/** Today's calendar day (UTC), to compare with `valid_until`. */
export const today = () => new Date().toISOString().slice(0, 10);
/** A `date` column's value as its day (`YYYY-MM-DD`), however the driver read it. */
export const dayOf = (v: unknown): string | null =>
  v == null ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10);
const expiredOn = (validUntil: unknown) => {
  const day = dayOf(validUntil);
  return day !== null && day < today();
};
const dmy = (day: unknown) => String(dayOf(day)).split("-").reverse().join("-");
/** The first moment (UTC) a proposal valid until `day` is expired: the next day's midnight. */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 24 * 60 * 60 * 1000);

/** The job that marks one sent proposal expired at its date. */
export const EXPIRE_JOB = "store.proposal.expire";
/** The hourly job that marks every due proposal expired (those without a job of their own). */
export const EXPIRE_CATCH_UP_JOB = "store.proposals.expire";

export class ProposalsService {
  constructor(readonly ctx: AppContext) {}

  private get db(): AnyDb {
    return this.ctx.db as unknown as AnyDb;
  }

  private changed(ids: string[], actorId: string | null) {
    this.ctx.events.publish({
      resource: "proposals",
      moduleID: MODULE_IDS.store,
      type: "updated",
      ids,
      actorId: actorId ?? "",
    });
  }

  /** The proposal's row, locked for the transaction's write. */
  private async locked(db: AnyDb, where: { id: string } | { token: string }) {
    const row = await db
      .selectFrom("proposals")
      .selectAll()
      .$call((q) => ("id" in where ? q.where("id", "=", where.id) : q.where("share_token", "=", where.token)))
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound("No such proposal");
    return row as Record<string, unknown> & { id: string };
  }

  async view(id: string): Promise<ProposalView> {
    await this.expireIfDue({ id });
    return this.viewOf(this.db, await this.row({ id }));
  }

  async viewByToken(token: string): Promise<ProposalView> {
    await this.expireIfDue({ token });
    return this.viewOf(this.db, await this.row({ token }));
  }

  private async row(where: { id: string } | { token: string }) {
    const row = await this.db
      .selectFrom("proposals")
      .selectAll()
      .$call((q) => ("id" in where ? q.where("id", "=", where.id) : q.where("share_token", "=", where.token)))
      .executeTakeFirst();
    if (!row) throw notFound("No such proposal");
    return row as Record<string, unknown> & { id: string };
  }

  private async viewOf(db: AnyDb, proposal: Record<string, unknown> & { id: string }): Promise<ProposalView> {
    const lines = await linesOf(db, proposal.id);
    const client = await db
      .selectFrom("clients")
      .select("name")
      .where("id", "=", proposal.client_id)
      .executeTakeFirst();
    const totals = totalsOrRefuse(moneyOf(proposal), lines);
    return {
      proposal: proposal as ProposalView["proposal"],
      lines,
      totals,
      clientName: client?.name ?? null,
    };
  }

  /** Replaces a draft's lines with these products and quantities; answers the lines and totals. */
  async setLines(id: string, body: readonly ProposalLineBody[], actorId: string) {
    const result = await this.db.transaction().execute(async (trx) => {
      const proposal = await this.locked(trx, { id });
      if (proposal.status !== "draft") throw conflict(NOT_A_DRAFT);
      const ids = [...new Set(body.map((l) => l.product_id))];
      const products = ids.length
        ? await trx
            .selectFrom("products")
            .select(["id", "sku_code", "name", "price", "currency"])
            .where("id", "in", ids)
            .execute()
        : [];
      const byId = new Map(products.map((p) => [p.id as string, p]));
      const problems: { field: string; message: string }[] = [];
      const lines: ProposalLine[] = [];
      body.forEach((line, i) => {
        const product = byId.get(line.product_id);
        if (!product) {
          problems.push({ field: `lines.${i}.product_id`, message: "is no product of the catalogue" });
          return;
        }
        if (product.currency !== proposal.currency) {
          problems.push({
            field: `lines.${i}.product_id`,
            message: `${product.name} (${product.sku_code}) is priced in ${product.currency}, and this proposal is in ${proposal.currency}: a proposal has one currency`,
          });
          return;
        }
        const discount = proposal.discount_option === DISCOUNT_OPTIONS.product ? line.discount : null;
        if (line.discount && proposal.discount_option !== DISCOUNT_OPTIONS.product) {
          problems.push({ field: `lines.${i}.discount`, message: "is only for the Product discount option" });
          return;
        }
        lines.push({
          product_id: product.id as string,
          sku: product.sku_code as string,
          name: product.name as string,
          unit_price: Number(product.price),
          quantity: line.quantity,
          discount_kind: discount?.kind ?? null,
          discount_value: discount?.value ?? null,
        });
      });
      if (problems.length) throw refusal(problems);
      const totals = storedTotals(moneyOf(proposal), lines);
      await trx.deleteFrom("proposal_lines").where("proposal_id", "=", id).execute();
      if (lines.length)
        await trx
          .insertInto("proposal_lines")
          .values(lines.map((l, position) => ({ ...l, proposal_id: id, position })))
          .execute();
      await trx
        .updateTable("proposals")
        .set({ ...totals, updated_by: actorId, updated_at: sql`now()` })
        .where("id", "=", id)
        .execute();
      return this.viewOf(trx, { ...proposal, ...totals });
    });
    this.changed([id], actorId);
    return result;
  }

  /** draft → sent: the share link is made; with `mail`, the client is sent it. */
  async send(id: string, options: { mail?: boolean; message?: string }, actorId: string) {
    const result = await this.db.transaction().execute(async (trx) => {
      const proposal = await this.locked(trx, { id });
      if (proposal.status !== "draft")
        throw conflict(`Only a draft can be sent: this proposal is ${String(proposal.status)}`);
      const view = await this.viewOf(trx, proposal);
      if (!view.lines.length)
        throw badRequest("Add at least one product before sending", [
          { field: "lines", message: "must have at least one product" },
        ]);
      if (expiredOn(proposal.valid_until))
        throw badRequest("The proposal's validity has passed: choose a later day before sending", [
          { field: "valid_until", message: "must be today or later" },
        ]);
      const token = randomBytes(24).toString("base64url");
      const row = await trx
        .updateTable("proposals")
        .set({
          status: "sent",
          share_token: token,
          sent_at: new Date(),
          updated_by: actorId,
          updated_at: sql`now()`,
        })
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow();
      // Marked expired at its date, so lists, filters and triggers see it without a read.
      const lastDay = dayOf(row.valid_until);
      if (lastDay)
        await this.ctx.jobs.enqueue(
          EXPIRE_JOB,
          { proposalId: id },
          { key: `proposal:${id}`, runAt: dayAfter(lastDay), db: trx as never },
        );
      const link = publicLink(this.ctx, token);
      if (options.mail) {
        const client = await trx
          .selectFrom("clients")
          .select(["name", "email"])
          .where("id", "=", proposal.client_id)
          .executeTakeFirst();
        if (!client?.email)
          throw badRequest("The client has no email address: add one, or send without mail", [
            { field: "mail", message: "needs the client's email address" },
          ]);
        const words = options.message?.trim() ? `${options.message.trim()}\n\n` : "";
        await this.ctx.mailer.queue(
          [
            {
              to: client.email,
              subject: `Proposal ${row.number}: ${row.title}`,
              text: `Hello ${client.name},\n\n${words}Your proposal "${row.title}" is ready: ${link}\n`,
            },
          ],
          trx as never,
        );
      }
      await addTimeline(trx as Db, [
        {
          clientId: String(proposal.client_id),
          kind: "proposal",
          title: `Proposal sent: ${row.title}`,
          data: { proposalId: id, number: row.number, total: Number(row.total), currency: row.currency },
          refId: id,
          actorId,
        },
      ]);
      return { row, link };
    });
    if (options.mail) this.ctx.mailer.wake();
    timelineChanged(this.ctx, [String(result.row.client_id)], actorId);
    this.changed([id], actorId);
    return result;
  }

  /**
   * Sent proposals past their day become expired (committed on their own): this one, or every
   * one due. Run at each proposal's date by its job (EXPIRE_JOB, queued when it is sent), and by
   * the hourly catch-up (proposals sent before the jobs existed, a job lost); the page, the
   * link and the answer call it too, so a job running late never lets a client accept late.
   */
  async expireDue(where: { id: string } | { token: string } | "all" = "all"): Promise<string[]> {
    const rows = await this.db
      .updateTable("proposals")
      .set({ status: "expired", updated_at: sql`now()` })
      .$call((q) =>
        where === "all"
          ? q
          : "id" in where
            ? q.where("id", "=", where.id)
            : q.where("share_token", "=", where.token),
      )
      .where("status", "=", "sent")
      .where("valid_until", "<", today())
      .returning("id")
      .execute();
    const ids = rows.map((r) => String(r.id));
    if (ids.length) this.changed(ids, null);
    return ids;
  }

  private async expireIfDue(where: { id: string } | { token: string }): Promise<void> {
    await this.expireDue(where);
  }

  /** Registers the expiry jobs: one per sent proposal at its date, and the hourly catch-up. */
  registerJobs(): void {
    this.ctx.jobs.register<{ proposalId: string }>(EXPIRE_JOB, async ({ payload }) => {
      await this.expireDue({ id: payload.proposalId });
    });
    this.ctx.jobs.recurring<null>(EXPIRE_CATCH_UP_JOB, 60 * 60 * 1000, null, async () => {
      await this.expireDue("all");
      return null;
    });
  }

  /** The client's answer on the public link: accepted or declined, once. */
  async decide(token: string, answer: "accepted" | "declined") {
    await this.expireIfDue({ token });
    const { row, won } = await this.db.transaction().execute(async (trx) => {
      const proposal = await this.locked(trx, { token });
      const status = proposal.status as ProposalStatus;
      if (status === "expired")
        throw new HttpError(410, `This proposal expired on ${dmy(proposal.valid_until)}: ask for a new one`);
      if (status === "accepted" || status === "declined")
        throw conflict(`This proposal was already ${status}`);
      if (status !== "sent") throw notFound("No such proposal");
      const row = await trx
        .updateTable("proposals")
        .set({ status: answer, decided_at: new Date(), updated_at: sql`now()` })
        .where("id", "=", proposal.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const won =
        answer === "accepted" && row.opportunity_id ? await winOpportunity(this.ctx, trx, row) : null;
      await addTimeline(trx as Db, [
        {
          clientId: String(row.client_id),
          kind: "proposal",
          title: `Proposal ${answer}: ${row.title}`,
          data: { proposalId: row.id, number: row.number, total: Number(row.total), currency: row.currency },
          refId: row.id,
        },
      ]);
      if (answer === "accepted") await proposalAccepted(this.ctx, trx as Db, toRecord(proposalSchema, row));
      await proposalAnswered(this.ctx, trx as unknown as AnyDb, row, answer);
      return { row, won };
    });
    timelineChanged(this.ctx, [String(row.client_id)], null);
    this.changed([String(row.id)], null);
    if (won)
      this.ctx.events.publish({
        resource: "opportunities",
        moduleID: MODULE_IDS.crm,
        type: "updated",
        ids: [won],
        actorId: "",
      });
    return row;
  }
}

/** The client's page of a proposal. */
export const publicLink = (ctx: AppContext, token: string) =>
  `${ctx.config.publicUrl.replace(/\/+$/, "")}/public/proposals/${token}`;
