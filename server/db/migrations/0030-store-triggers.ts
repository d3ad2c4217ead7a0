/**
 * Brings automations up to date with its schema. Generated from the schemas and server/db/snapshots/
 * by
 *   npm run migration:new -- automations --name store-triggers
 * then reviewed: the kinds only grow (proposal accepted, store cart abandoned), so every row passes.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- automations (changed)
    alter table automations drop constraint automations_trigger_kind_check;
    alter table automations add constraint automations_trigger_kind_check check (trigger_kind in ('client-created', 'opportunity-stage-changed', 'form-submitted', 'cms-entry-published', 'proposal-accepted', 'cart-abandoned', 'schedule', 'webhook', 'manual'));
  `.execute(db);
}
