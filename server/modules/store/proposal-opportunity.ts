/**
 * An accepted proposal's opportunity: won, and moved to a "won" stage when the CRM has one (a
 * stage whose value or label is "won"). Written through the opportunities' own rules, in the
 * acceptance's transaction, so it closes as a won card does on the board: its closed time, its
 * timeline entry, its client's sequences ended.
 */
import { sql } from "kysely";
import type { AppContext } from "../../context";
import type { AnyDb } from "../../resources/rules";
import { opportunityRules } from "../crm/opportunity.rules";

/** The proposal's opportunity, won (and moved to a "won" stage when the CRM has one). */
/** Answers the opportunity's id when it changed (for the caller to tell, after its commit). */
export async function winOpportunity(
  ctx: AppContext,
  trx: AnyDb,
  proposal: Record<string, unknown>,
): Promise<string | null> {
  const existing = await trx
    .selectFrom("opportunities")
    .selectAll()
    .where("id", "=", proposal.opportunity_id)
    .forUpdate()
    .executeTakeFirst();
  if (!existing || existing.status === "won") return null;
  const wonStage = await trx
    .selectFrom("crm_dropdowns")
    .select("value")
    .where("list", "=", "stage")
    .where((eb) =>
      eb.or([
        eb(sql`lower(value)`, "in", ["won", "closed-won", "closed_won"]),
        eb(sql`lower(label)`, "in", ["won", "closed won"]),
      ]),
    )
    .executeTakeFirst();
  const values: Record<string, unknown> = {
    status: "won",
    close_note: `Proposal ${proposal.number} accepted`,
    ...(wonStage ? { stage: wonStage.value } : {}),
  };
  const set: Record<string, unknown> = {};
  await opportunityRules.beforeWrite?.({ db: trx, existing, values, set });
  const row = await trx
    .updateTable("opportunities")
    .set({ ...values, ...set, updated_at: sql`now()` })
    .where("id", "=", existing.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  // The client accepted, not a user: no actor (the timeline's entry has none).
  const actorId = null as unknown as string;
  await opportunityRules.afterWrite?.({ db: trx, existing, row, actorId, app: ctx });
  return String(existing.id);
}
