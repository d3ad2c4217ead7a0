/** The `clients` resource's rules: a client given to someone notifies them. */
import type { ResourceRules } from "../../resources/rules";
import { notifyAssignment } from "./assignments";

export const clientRules: ResourceRules = {
  async afterWrite(context) {
    const { row } = context;
    await notifyAssignment(context, "owner_id", {
      title: `Client for you: ${row.name}`,
      link: `/crm/clients/show/${row.id}`,
      body: [row.company, row.email].filter(Boolean).join(" · ") || undefined,
    });
  },
};
