/**
 * Any entity's records as automation triggers (issue 30): `record-created`, `record-updated`
 * and `record-deleted` join the trigger kinds. Generated from the schemas and
 * server/db/snapshots/ by
 *   npm run migration:new -- automations --name record-triggers
 * then reviewed: existing rows satisfy the constraint (it only gains kinds; 0041's
 * `automation-failed` stays).
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- automations (changed)
    alter table automations drop constraint automations_trigger_kind_check;
    alter table automations add constraint automations_trigger_kind_check check (trigger_kind in ('client-created', 'opportunity-stage-changed', 'form-submitted', 'cms-entry-published', 'proposal-accepted', 'cart-abandoned', 'email-opened', 'email-clicked', 'record-created', 'record-updated', 'record-deleted', 'schedule', 'webhook', 'manual', 'automation-failed'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update automations set trigger_kind = 'manual', status = 'paused'
      where trigger_kind in ('record-created', 'record-updated', 'record-deleted');
    alter table automations drop constraint automations_trigger_kind_check;
    alter table automations add constraint automations_trigger_kind_check check (trigger_kind in ('client-created', 'opportunity-stage-changed', 'form-submitted', 'cms-entry-published', 'proposal-accepted', 'cart-abandoned', 'email-opened', 'email-clicked', 'schedule', 'webhook', 'manual', 'automation-failed'));
  `.execute(db);
}
