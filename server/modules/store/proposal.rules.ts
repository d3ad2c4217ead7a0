/**
 * The `proposals` resource's rules: only a draft is edited (its life moves through the module's
 * routes); a new one gets its number; the opportunity must be the client's; the discount fields
 * follow the option (a total discount only with Total discount, line discounts only with
 * Product discount); and the money is computed again from the stored lines on every write,
 * never taken from the request. A proposal once sent is kept: only drafts are deleted.
 */
import { sql } from "kysely";
import { DISCOUNT_OPTIONS } from "../../../schemas/proposal-money";
import { badRequest, conflict } from "../../http/errors";
import type { ResourceRules } from "../../resources/rules";
import { linesOf, moneyOf, storedTotals } from "./proposal-money.service";

export const NOT_A_DRAFT = "Only a draft proposal can be changed";

export const proposalRules: ResourceRules = {
  async beforeWrite({ db, existing, values, set }) {
    if (existing && existing.status !== "draft") throw conflict(NOT_A_DRAFT);
    const merged = { ...(existing ?? {}), ...values };
    if (!existing) {
      const { rows } = await sql<{ n: string }>`select nextval('proposal_numbers') as n`.execute(db);
      set.number = `P-${String(rows[0].n).padStart(6, "0")}`;
    }
    if (merged.opportunity_id && ("opportunity_id" in values || "client_id" in values)) {
      const opportunity = await db
        .selectFrom("opportunities")
        .select("client_id")
        .where("id", "=", merged.opportunity_id)
        .executeTakeFirst();
      if (opportunity && opportunity.client_id !== merged.client_id)
        throw badRequest("The opportunity is another client's", [
          { field: "opportunity_id", message: "must be one of the chosen client's opportunities" },
        ]);
    }
    const option = Number(merged.discount_option ?? DISCOUNT_OPTIONS.none);
    if (option !== DISCOUNT_OPTIONS.total) {
      set.total_discount_kind = null;
      set.total_discount_value = null;
    } else if ((merged.total_discount_kind == null) !== (merged.total_discount_value == null))
      throw badRequest("Say both how and how much the total discount is", [
        merged.total_discount_kind == null
          ? {
              field: "total_discount_kind",
              message: "must be Percent or Amount when a total discount is given",
            }
          : { field: "total_discount_value", message: "must be given when the total discount has a kind" },
      ]);
    // Line discounts belong to the Product discount option: another option drops them.
    if (existing && option !== DISCOUNT_OPTIONS.product)
      await db
        .updateTable("proposal_lines")
        .set({ discount_kind: null, discount_value: null })
        .where("proposal_id", "=", existing.id)
        .execute();
    const lines = existing ? await linesOf(db, String(existing.id)) : [];
    const money = moneyOf({ ...merged, discount_option: option });
    if (existing && "currency" in values && values.currency !== existing.currency && lines.length)
      throw badRequest("A proposal has one currency: its lines are priced in another", [
        {
          field: "currency",
          message: `must stay ${existing.currency}, the currency of the proposal's products`,
        },
      ]);
    Object.assign(set, storedTotals(money, lines));
  },

  // A sent proposal is what the client was shown (and may have answered): it is kept.
  async beforeDelete({ db, ids }) {
    const kept = await db
      .selectFrom("proposals")
      .select("number")
      .where("id", "in", ids)
      .where("status", "!=", "draft")
      .execute();
    if (kept.length)
      throw conflict(
        `Only a draft proposal can be deleted: ${kept.map((k) => k.number).join(", ")} ${kept.length === 1 ? "was" : "were"} sent to the client`,
      );
  },
};
