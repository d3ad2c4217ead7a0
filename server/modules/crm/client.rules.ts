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
    const { row } = context;
    await notifyAssignment(context, "owner_id", {
      title: `Client for you: ${row.name}`,
      link: `/crm/clients/show/${row.id}`,
      body: [row.company, row.email].filter(Boolean).join(" · ") || undefined,
    });
    if (!context.existing) await clientCreated(context.app, context.db as unknown as RunDb, context.row);
  },
};
