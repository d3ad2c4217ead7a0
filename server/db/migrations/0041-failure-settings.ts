/**
 * Brings automations up to date with its schema. Generated from the schemas and server/db/snapshots/
 * by
 *   npm run migration:new -- automations --name failure-settings
 * then reviewed.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- automations (changed)
    alter table automations drop constraint automations_trigger_kind_check;
    alter table automations add column notify_on_failure boolean not null default true;
    alter table automations add column failure_automation_id uuid;
    -- reviewed: every existing trigger kind is still in the list
    alter table automations add constraint automations_trigger_kind_check check (trigger_kind in ('client-created', 'opportunity-stage-changed', 'form-submitted', 'cms-entry-published', 'proposal-accepted', 'cart-abandoned', 'email-opened', 'email-clicked', 'schedule', 'webhook', 'manual', 'automation-failed'));
    alter table automations add constraint automations_failure_automation_id_fkey foreign key (failure_automation_id) references automations (id) on delete set null;
  `.execute(db);
}
