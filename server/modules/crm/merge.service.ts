/**
 * Merging duplicate clients (issue 16): `POST /crm/clients/merge { primaryId, duplicateIds }`.
 * In one transaction: everything pointing at a duplicate points at the primary
 * (merge-references.ts), the duplicates are deleted, the primary takes what they knew that it
 * did not (schemas/crm-merge.ts: empty fields filled, tags united, an opt-out kept), and its
 * timeline says what was merged. All of it or nothing.
 */

import { clients as clientsResource } from "../../../resources/crm";
import { RESOURCES } from "../../../resources/index";
import { type MergeConflict, mergeRecords } from "../../../schemas/crm-merge";
import type { AppContext } from "../../context";
import { badRequest, notFound } from "../../http/errors";
import { customFields } from "../../resources/custom-fields";
import { CUSTOM, mergeCustom, type Row, toRecord } from "../../resources/records";
import { type Moved, moveReferences, referencesTo } from "./merge-references";
import { addTimeline, timelineChanged } from "./timeline";

export interface MergeInput {
  primaryId: string;
  duplicateIds: string[];
}

export interface MergeOutcome {
  /** The primary client as it is now. */
  client: Row;
  /** Rows moved to it, by table and column (only those that moved or stayed). */
  moved: Array<Omit<Moved, "ids">>;
  /** Fields where the records disagreed: the primary's value was kept. */
  conflicts: MergeConflict[];
}

const nameOf = (r: Row) => `${String(r.name)}${r.email ? ` <${String(r.email)}>` : ""}`;

export async function mergeClients(
  ctx: AppContext,
  input: MergeInput,
  actorId: string,
): Promise<MergeOutcome> {
  const { primaryId } = input;
  const duplicateIds = [...new Set(input.duplicateIds)];
  if (duplicateIds.includes(primaryId)) {
    const message = "The client kept cannot also be one of the duplicates";
    throw badRequest(message, [{ field: "duplicateIds", message }]);
  }
  const schema = await customFields(ctx).schemaOf(clientsResource.schema);
  const { outcome, moved } = await ctx.db.transaction().execute(async (trx) => {
    const ids = [primaryId, ...duplicateIds];
    // Locked in id order, as every merge locks them: two merges of the same clients queue.
    const rows = (await trx
      .selectFrom("clients")
      .selectAll()
      .where("id", "in", ids)
      .orderBy("id")
      .forUpdate()
      .execute()) as Row[];
    const byId = new Map(rows.map((r) => [String(r.id), r]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length)
      throw notFound(
        missing.length === 1 ? "Client not found" : `${missing.length} of these clients were not found`,
      );
    const primary = toRecord(schema, byId.get(primaryId) as Row);
    const duplicates = duplicateIds.map((id) => toRecord(schema, byId.get(id) as Row));
    const { changes, conflicts } = mergeRecords(schema, primary, duplicates);

    const moved: Moved[] = [];
    for (const ref of await referencesTo(trx, "clients"))
      moved.push(await moveReferences(trx, ref, duplicateIds, primaryId));
    // The duplicates go before the primary takes their values: an email is unique.
    await trx.deleteFrom("clients").where("id", "in", duplicateIds).execute();

    const set: Row = {};
    const custom: Row = {};
    for (const [field, value] of Object.entries(changes)) {
      if (schema["x-customFields"]?.includes(field)) custom[field] = value;
      else set[field] = Array.isArray(value) ? JSON.stringify(value) : value;
    }
    if (Object.keys(custom).length) set[CUSTOM] = mergeCustom(JSON.stringify(custom));
    const updated = (await trx
      .updateTable("clients")
      .set({ ...set, updated_at: new Date(), updated_by: actorId })
      .where("id", "=", primaryId)
      .returningAll()
      .executeTakeFirstOrThrow()) as Row;

    const movedLines = moved
      .filter((m) => m.rows)
      .map((m) => `${m.rows} ${m.table.replace(/^crm_/, "").replace(/_/g, " ")} (${m.column})`);
    await addTimeline(trx, [
      {
        clientId: primaryId,
        kind: "note",
        title:
          `Merged ${duplicates.length === 1 ? "a duplicate" : `${duplicates.length} duplicates`}: ${duplicates.map((d) => String(d.name)).join(", ")}`.slice(
            0,
            300,
          ),
        body: [
          `Merged into this client: ${duplicates.map(nameOf).join("; ")}.`,
          movedLines.length ? `Moved here: ${movedLines.join(", ")}.` : "Nothing pointed at them.",
          Object.keys(changes).length ? `Filled in: ${Object.keys(changes).join(", ")}.` : null,
        ]
          .filter(Boolean)
          .join("\n"),
        data: {
          merged: duplicateIds,
          changes: Object.keys(changes),
          conflicts: conflicts.map((c) => c.field),
        },
        actorId,
      },
    ]);
    return {
      moved,
      outcome: {
        client: toRecord(schema, updated),
        moved: moved.filter((m) => m.rows || m.kept).map(({ ids: _, ...m }) => m),
        conflicts,
      },
    };
  });

  const publish = (resource: string, moduleID: number, type: "updated" | "deleted", ids: string[]) => {
    if (ids.length) ctx.events.publish({ resource, moduleID, type, ids, actorId });
  };
  publish("clients", clientsResource.moduleID, "deleted", duplicateIds);
  publish("clients", clientsResource.moduleID, "updated", [primaryId]);
  for (const m of moved) {
    const def = RESOURCES.find((d) => d.schema["x-table"] === m.table);
    if (def) publish(def.name, def.moduleID, "updated", m.ids);
  }
  timelineChanged(ctx, [primaryId], actorId);
  return outcome;
}
