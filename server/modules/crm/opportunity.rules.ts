/**
 * The `opportunities` resource's rules: closing one (won or lost) stamps when, a lost one says
 * why, reopening clears both; and every change a client would want to see — created, moved
 * between stages, won, lost, reopened — lands on the client's timeline in the same transaction.
 */

import { badRequest } from "../../http/errors";
import type { ResourceRules } from "../../resources/rules";
import type { Run, Db as RunDb } from "../../runs";
import { opportunityMoved } from "../automation/crm-events";
import { notifyAssignment } from "./assignments";
import { placeOnArrival } from "./board-positions";
import { optionLabels } from "./dropdowns";
import { exitSequences } from "./sequences/exits";
import { addTimeline, type Db } from "./timeline";

const LOST_REASON_MISSING = "Choose why it was lost";

export const opportunityRules: ResourceRules = {
  async beforeWrite({ existing, values, set }) {
    placeOnArrival(existing, values, set);
    const before = (existing?.status as string | undefined) ?? null;
    const status = (values.status as string | undefined) ?? before ?? "open";
    if (status === before) return;
    if (status === "lost") {
      const reason = "lost_reason" in values ? values.lost_reason : existing?.lost_reason;
      if (!reason)
        throw badRequest(LOST_REASON_MISSING, [{ field: "lost_reason", message: LOST_REASON_MISSING }]);
    }
    if (status === "open") {
      set.closed_at = null;
      if (!("lost_reason" in values)) set.lost_reason = null;
    } else set.closed_at = new Date();
  },

  async afterWrite(context) {
    const { db, existing, row, actorId, app } = context;
    await notifyAssignment(context, "opportunity");
    const stages = await optionLabels(db as Db, "stage");
    const stage = (value: unknown) => stages.get(String(value)) ?? String(value);
    const title = String(row.title);
    const data = {
      opportunityId: row.id,
      value: Number(row.value),
      currency: row.currency,
      stage: row.stage,
      status: row.status,
    };
    const entries: { title: string; body?: string | null; data: Record<string, unknown> }[] = [];
    if (!existing)
      entries.push({ title: `Opportunity created: ${title}`, data: { ...data, change: "created" } });
    else {
      if (existing.stage !== row.stage)
        entries.push({
          title: `${title} moved from ${stage(existing.stage)} to ${stage(row.stage)}`,
          data: { ...data, change: "stage", fromStage: existing.stage, toStage: row.stage },
        });
      if (existing.status !== row.status) {
        const reasons = row.status === "lost" ? await optionLabels(db as Db, "lost_reason") : undefined;
        const reason = reasons?.get(String(row.lost_reason)) ?? row.lost_reason;
        const heading =
          row.status === "won"
            ? `Won: ${title}`
            : row.status === "lost"
              ? `Lost: ${title}`
              : `Reopened: ${title}`;
        entries.push({
          title: heading,
          body:
            [row.status === "lost" && reason ? `Reason: ${reason}` : null, row.close_note]
              .filter(Boolean)
              .join("\n") || null,
          data: {
            ...data,
            change: "status",
            fromStatus: existing.status,
            toStatus: row.status,
            lostReason: row.lost_reason,
          },
        });
      }
    }
    // A won or lost opportunity ends its client's sequences (issue 16). Before the timeline
    // writes to the client's row: a step locks its run first, then the client (no deadlock).
    if (existing?.status !== row.status && (row.status === "won" || row.status === "lost"))
      await exitSequences(app, db as Db, String(row.client_id), row.status);
    // Automations on a stage change start, and runs waiting for one go on (issue 17).
    if (existing && existing.stage !== row.stage)
      await opportunityMoved(
        app,
        db as unknown as RunDb,
        row,
        existing.stage,
        // An automation's step that moved it: the runs it starts continue that run's chain.
        (context.cause as Run | null | undefined) ?? null,
      );
    await addTimeline(
      db as Db,
      entries.map((e) => ({
        clientId: String(row.client_id),
        kind: "opportunity" as const,
        refId: String(row.id),
        actorId,
        ...e,
      })),
    );
  },
};
