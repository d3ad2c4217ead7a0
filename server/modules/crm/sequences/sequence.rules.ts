/**
 * The `sequences` resource's rules: making a paused sequence active again lets every step it
 * held run (in the same transaction as the change), and deleting a sequence ends its
 * enrolments with it (their runs and queued steps go).
 */
import type { ResourceRules } from "../../../resources/rules";
import type { Db } from "../timeline";
import { resumeHeld } from "./enrolments";
import { SEQUENCE_KIND } from "./kind-names";

export const sequenceRules: ResourceRules = {
  async afterWrite({ db, existing, row, app }) {
    if (existing?.status === "paused" && row.status === "active")
      await resumeHeld(app, db as unknown as Db, String(row.id));
  },

  // After the commit: a run whose sequence is gone also leaves at its next step (exitCheck).
  // In the delete's transaction: the sequence and its enrolments go together, or neither does.
  async beforeDelete({ db, ids, app }) {
    // biome-ignore lint/suspicious/noExplicitAny: the rules' database is the engine's untyped one.
    for (const id of ids) await app.runs.removeOwner(db as any, SEQUENCE_KIND, id);
  },
};
