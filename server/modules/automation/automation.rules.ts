/**
 * The `automations` resource's rules: a new automation gets its flow (an empty draft) and its
 * webhook secret in the same transaction; it cannot be made active before it was published, nor
 * name itself as what starts when it fails;
 * deleting one deletes its runs and their queued steps in the same transaction.
 */

import { badRequest } from "../../http/errors";
import type { ResourceRules } from "../../resources/rules";
import { createDefinitions } from "./definitions";
import { AUTOMATION_KIND } from "./triggers";

export const automationRules: ResourceRules = {
  async beforeWrite({ existing, values }) {
    if (values.status === "active" && !existing?.published_version)
      throw badRequest("Publish the automation before making it active", [
        { field: "status", message: "must stay Draft until the automation is published" },
      ]);
    if (values.status === "draft" && existing?.published_version)
      throw badRequest("A published automation is active or paused", [
        { field: "status", message: "must be Active or Paused once the automation is published" },
      ]);
    // A failure of this automation starting this automation would start it again at once.
    if (values.failure_automation_id && existing && values.failure_automation_id === existing.id)
      throw badRequest("An automation cannot start itself when it fails", [
        { field: "failure_automation_id", message: "must be another automation" },
      ]);
  },

  async afterWrite({ db, existing, row, actorId }) {
    // biome-ignore lint/suspicious/noExplicitAny: the rules' database is the engine's untyped one.
    if (!existing) await createDefinitions(db as any, String(row.id), actorId);
  },

  // In the delete's transaction: the automation and its runs go together, or neither does.
  async beforeDelete({ db, ids, app }) {
    // biome-ignore lint/suspicious/noExplicitAny: the rules' database is the engine's untyped one.
    for (const id of ids) await app.runs.removeOwner(db as any, AUTOMATION_KIND, id);
  },
};
