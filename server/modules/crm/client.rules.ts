/**
 * The `clients` resource's rules: a client given to someone notifies them; a new client starts
 * the automations triggered by "client created" (issue 17), in the same transaction.
 */
import type { ResourceRules } from "../../resources/rules";
import type { Db as RunDb } from "../../runs";
import { clientCreated } from "../automation/crm-events";
import { notifyAssignment } from "./assignments";

export const clientRules: ResourceRules = {
  async afterWrite(context) {
    await notifyAssignment(context, "client");
    if (!context.existing) await clientCreated(context.app, context.db as unknown as RunDb, context.row);
  },
};
