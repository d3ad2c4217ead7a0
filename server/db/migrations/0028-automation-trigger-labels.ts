/**
 * Brings automations up to date with its schema. Generated from the schemas and server/db/snapshots/
 * by
 *   npm run migration:new -- automations --name automation-trigger-labels
 * then reviewed: the trigger is one of the kinds (the list shows its label and filters by it).
 * Rows satisfy it: publishing writes the published trigger's kind, and null (never published)
 * passes a check.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- automations (changed)
    alter table automations drop constraint automations_trigger_kind_check;
    alter table automations add constraint automations_trigger_kind_check check (trigger_kind in ('client-created', 'opportunity-stage-changed', 'form-submitted', 'cms-entry-published', 'schedule', 'webhook', 'manual'));
    create index automations_trigger_kind_idx on automations (trigger_kind);
  `.execute(db);
}
