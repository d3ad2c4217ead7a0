/**
 * A client's answer to a proposal, told to the people it matters to (notification kind
 * `store.proposal_answered`, issue 27): the owner of the proposal's opportunity, and the person
 * who made the proposal; when neither can read it (no opportunity owner, accounts deleted or
 * disabled, the module taken away), the Online store module's administrators. Written in the
 * answer's transaction. The notification names the proposal and links to its admin page, never
 * to the client's public link (whoever holds that link can answer the proposal).
 */
import { proposals as proposalsResource } from "../../../resources/proposals";
import { formatMoney } from "../../../schemas/money";
import { recordPath } from "../../../src/resources/routes";
import type { AppContext } from "../../context";
import type { AnyDb } from "../../resources/rules";

type Db = AppContext["db"];

export async function proposalAnswered(
  ctx: AppContext,
  db: AnyDb,
  proposal: Record<string, unknown>,
  answer: "accepted" | "declined",
): Promise<void> {
  const client = await db
    .selectFrom("clients")
    .select("name")
    .where("id", "=", proposal.client_id)
    .executeTakeFirst();
  const opportunity = proposal.opportunity_id
    ? await db
        .selectFrom("opportunities")
        .select(["title", "owner_id"])
        .where("id", "=", proposal.opportunity_id)
        .executeTakeFirst()
    : undefined;
  const who = client?.name ? String(client.name) : "The client";
  const number = proposal.number ? `proposal ${proposal.number}` : "a proposal";
  const total = formatMoney(String(proposal.total), String(proposal.currency));
  const won = answer === "accepted" && opportunity ? ` The opportunity "${opportunity.title}" is won.` : "";
  const notice = {
    kind: "store.proposal_answered" as const,
    title: `${who} ${answer} ${number}: ${proposal.title}`,
    body: `Total ${total}.${won}`,
    link: recordPath(proposalsResource, "show", String(proposal.id)),
    data: { proposalId: proposal.id, opportunityId: proposal.opportunity_id ?? null, answer },
    dedupeKey: `store.proposal_answered:${proposal.id}`,
  };
  const to = [opportunity?.owner_id, proposal.created_by].filter((u): u is string => typeof u === "string");
  const told = to.length
    ? await ctx.notifications.notify(db as unknown as Db, { ...notice, userIds: to })
    : null;
  if (!told?.userIds.length)
    await ctx.notifications.notifyModuleUsers(db as unknown as Db, { ...notice, adminsOnly: true });
}
