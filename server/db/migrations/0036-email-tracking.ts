/**
 * Opens and clicks of CRM email (issue 27): a sent email counts its opens (its tracking pixel
 * fetched) and clicks (its signed links followed), with the first of each; a client's timeline
 * gains the kinds `email_opened` and `email_clicked`; an automation may start on either.
 *
 * The automations part was generated from the schemas and server/db/snapshots/ by
 *   npm run migration:new -- automations --name email-tracking
 * then reviewed: existing rows satisfy the constraint (it only gains kinds). The rest is written
 * by hand (`crm_messages` and `crm_timeline` are not resources).
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- automations (changed)
    alter table automations drop constraint automations_trigger_kind_check;
    alter table automations add constraint automations_trigger_kind_check check (trigger_kind in ('client-created', 'opportunity-stage-changed', 'form-submitted', 'cms-entry-published', 'proposal-accepted', 'cart-abandoned', 'email-opened', 'email-clicked', 'schedule', 'webhook', 'manual'));

    -- Counted on the message: a mail program fetches the pixel at every look, so the count is
    -- of fetches; the first open and first click are the events.
    alter table crm_messages
      add column opened_at timestamptz,
      add column open_count integer not null default 0 check (open_count >= 0),
      add column clicked_at timestamptz,
      add column click_count integer not null default 0 check (click_count >= 0);

    alter table crm_timeline drop constraint crm_timeline_kind_check;
    alter table crm_timeline add constraint crm_timeline_kind_check check (kind in ('note', 'email_out', 'email_in', 'email_opened', 'email_clicked', 'sms_out', 'sms_in', 'form', 'opportunity', 'meeting', 'task', 'sequence', 'proposal', 'store'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    delete from crm_timeline where kind in ('email_opened', 'email_clicked');
    alter table crm_timeline drop constraint crm_timeline_kind_check;
    alter table crm_timeline add constraint crm_timeline_kind_check check (kind in ('note', 'email_out', 'email_in', 'sms_out', 'sms_in', 'form', 'opportunity', 'meeting', 'task', 'sequence', 'proposal', 'store'));
    alter table crm_messages
      drop column opened_at,
      drop column open_count,
      drop column clicked_at,
      drop column click_count;
    alter table automations drop constraint automations_trigger_kind_check;
    alter table automations add constraint automations_trigger_kind_check check (trigger_kind in ('client-created', 'opportunity-stage-changed', 'form-submitted', 'cms-entry-published', 'proposal-accepted', 'cart-abandoned', 'schedule', 'webhook', 'manual'));
  `.execute(db);
}
