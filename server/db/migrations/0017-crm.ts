/**
 * The CRM's records (issue 16). Clients, opportunities, crm_dropdowns, crm_tasks and
 * crm_templates are generated from the schemas and server/db/snapshots/ by
 *   npm run migration:new -- clients opportunities dropdowns tasks templates --name crm
 * then reviewed; the rest is the module's own:
 * - (a client's email is unique whatever its case: every writer stores it lower-cased, the
 *   engine's toColumns among them);
 * - `crm_timeline`: what happened with a client (spec §3 `clientData`), newest first. Writers
 *   that may run twice for one cause (an inbound mail, a retried job) pass a `dedupe_key`.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- clients (new)
    create table clients (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid,
      updated_by uuid,
      name text not null,
      email text,
      phone text,
      company text,
      job_title text,
      owner_id uuid,
      source text,
      industry text,
      tags jsonb not null,
      consent_email boolean not null default false,
      consent_sms boolean not null default false,
      sms_opted_out_at timestamptz,
      first_touch text,
      last_activity_at timestamptz,
      custom jsonb not null default '{}'::jsonb,
      constraint clients_name_check check (char_length(name) >= 1 and char_length(name) <= 160),
      constraint clients_email_check check (char_length(email) <= 254),
      constraint clients_phone_check check (char_length(phone) <= 20),
      constraint clients_company_check check (char_length(company) <= 160),
      constraint clients_job_title_check check (char_length(job_title) <= 120),
      constraint clients_source_check check (char_length(source) <= 40),
      constraint clients_industry_check check (char_length(industry) <= 40),
      constraint clients_tags_check check (jsonb_array_length(tags) <= 30),
      constraint clients_first_touch_check check (char_length(first_touch) <= 300),
      constraint clients_email_key unique (email),
      constraint clients_created_by_fkey foreign key (created_by) references users (id) on delete set null,
      constraint clients_updated_by_fkey foreign key (updated_by) references users (id) on delete set null,
      constraint clients_owner_id_fkey foreign key (owner_id) references users (id) on delete set null
    );
    create index clients_name_idx on clients (name);
    create index clients_company_idx on clients (company);
    create index clients_owner_id_idx on clients (owner_id);
    create index clients_source_idx on clients (source);
    create index clients_industry_idx on clients (industry);
    create index clients_consent_email_idx on clients (consent_email);
    create index clients_consent_sms_idx on clients (consent_sms);
    create index clients_last_activity_at_idx on clients (last_activity_at);
    create index clients_created_at_idx on clients (created_at);
    create index clients_updated_at_idx on clients (updated_at);

    -- opportunities (new)
    create table opportunities (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid,
      updated_by uuid,
      title text not null,
      client_id uuid not null,
      value numeric(14, 2) not null default 0,
      currency text not null default 'INR',
      stage text not null,
      status text not null default 'open',
      lost_reason text,
      close_note text,
      owner_id uuid,
      expected_close date,
      closed_at timestamptz,
      position double precision not null default 0,
      custom jsonb not null default '{}'::jsonb,
      constraint opportunities_title_check check (char_length(title) >= 1 and char_length(title) <= 200),
      constraint opportunities_value_check check (value >= 0 and value <= 999999999999.99),
      constraint opportunities_currency_check check (currency in ('INR', 'USD', 'EUR', 'GBP', 'AED', 'SGD', 'AUD', 'CAD', 'JPY')),
      constraint opportunities_stage_check check (char_length(stage) <= 40),
      constraint opportunities_status_check check (status in ('open', 'won', 'lost')),
      constraint opportunities_lost_reason_check check (char_length(lost_reason) <= 40),
      constraint opportunities_close_note_check check (char_length(close_note) <= 1000),
      constraint opportunities_created_by_fkey foreign key (created_by) references users (id) on delete set null,
      constraint opportunities_updated_by_fkey foreign key (updated_by) references users (id) on delete set null,
      constraint opportunities_client_id_fkey foreign key (client_id) references clients (id) on delete cascade,
      constraint opportunities_owner_id_fkey foreign key (owner_id) references users (id) on delete set null
    );
    create index opportunities_title_idx on opportunities (title);
    create index opportunities_client_id_idx on opportunities (client_id);
    create index opportunities_value_idx on opportunities (value);
    create index opportunities_currency_idx on opportunities (currency);
    create index opportunities_stage_idx on opportunities (stage);
    create index opportunities_status_idx on opportunities (status);
    create index opportunities_owner_id_idx on opportunities (owner_id);
    create index opportunities_expected_close_idx on opportunities (expected_close);
    create index opportunities_closed_at_idx on opportunities (closed_at);
    create index opportunities_created_at_idx on opportunities (created_at);
    create index opportunities_updated_at_idx on opportunities (updated_at);

    -- dropdowns (new)
    create table crm_dropdowns (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid,
      updated_by uuid,
      list text not null,
      value text not null,
      label text not null,
      position integer not null default 0,
      probability integer,
      color text,
      archived boolean not null default false,
      constraint crm_dropdowns_list_check check (char_length(list) >= 1 and char_length(list) <= 40),
      constraint crm_dropdowns_value_check check (char_length(value) >= 1 and char_length(value) <= 40),
      constraint crm_dropdowns_label_check check (char_length(label) >= 1 and char_length(label) <= 80),
      constraint crm_dropdowns_position_check check (position >= 0 and position <= 10000),
      constraint crm_dropdowns_probability_check check (probability >= 0 and probability <= 100),
      constraint crm_dropdowns_list_value_key unique (list, value),
      constraint crm_dropdowns_created_by_fkey foreign key (created_by) references users (id) on delete set null,
      constraint crm_dropdowns_updated_by_fkey foreign key (updated_by) references users (id) on delete set null
    );
    create index crm_dropdowns_label_idx on crm_dropdowns (label);
    create index crm_dropdowns_value_idx on crm_dropdowns (value);
    create index crm_dropdowns_position_idx on crm_dropdowns (position);
    create index crm_dropdowns_archived_idx on crm_dropdowns (archived);

    -- tasks (new)
    create table crm_tasks (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid,
      updated_by uuid,
      title text not null,
      notes text,
      client_id uuid,
      opportunity_id uuid,
      due_at timestamptz,
      remind_at timestamptz,
      assignee_id uuid,
      done boolean not null default false,
      done_at timestamptz,
      constraint crm_tasks_title_check check (char_length(title) >= 1 and char_length(title) <= 200),
      constraint crm_tasks_notes_check check (char_length(notes) <= 4000),
      constraint crm_tasks_created_by_fkey foreign key (created_by) references users (id) on delete set null,
      constraint crm_tasks_updated_by_fkey foreign key (updated_by) references users (id) on delete set null,
      constraint crm_tasks_client_id_fkey foreign key (client_id) references clients (id) on delete cascade,
      constraint crm_tasks_opportunity_id_fkey foreign key (opportunity_id) references opportunities (id) on delete set null,
      constraint crm_tasks_assignee_id_fkey foreign key (assignee_id) references users (id) on delete set null
    );
    create index crm_tasks_title_idx on crm_tasks (title);
    create index crm_tasks_client_id_idx on crm_tasks (client_id);
    create index crm_tasks_opportunity_id_idx on crm_tasks (opportunity_id);
    create index crm_tasks_due_at_idx on crm_tasks (due_at);
    create index crm_tasks_assignee_id_idx on crm_tasks (assignee_id);
    create index crm_tasks_done_idx on crm_tasks (done);
    create index crm_tasks_updated_at_idx on crm_tasks (updated_at);

    -- templates (new)
    create table crm_templates (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid,
      updated_by uuid,
      name text not null,
      channel text not null default 'email',
      subject text,
      body text not null,
      constraint crm_templates_name_check check (char_length(name) >= 1 and char_length(name) <= 120),
      constraint crm_templates_channel_check check (channel in ('email', 'sms')),
      constraint crm_templates_subject_check check (char_length(subject) <= 200),
      constraint crm_templates_body_check check (char_length(body) >= 1 and char_length(body) <= 20000),
      constraint crm_templates_channel_name_key unique (channel, name),
      constraint crm_templates_created_by_fkey foreign key (created_by) references users (id) on delete set null,
      constraint crm_templates_updated_by_fkey foreign key (updated_by) references users (id) on delete set null
    );
    create index crm_templates_name_idx on crm_templates (name);
    create index crm_templates_updated_at_idx on crm_templates (updated_at);

    create table crm_timeline (
      id uuid primary key default gen_random_uuid(),
      client_id uuid not null references clients (id) on delete cascade,
      kind text not null,
      occurred_at timestamptz not null default now(),
      actor_id uuid references users (id) on delete set null,
      title text not null,
      body text,
      data jsonb not null default '{}'::jsonb,
      ref_id uuid,
      dedupe_key text,
      constraint crm_timeline_kind_check check (kind in ('note', 'email_out', 'email_in', 'sms_out', 'sms_in', 'form', 'opportunity', 'meeting', 'task', 'sequence')),
      constraint crm_timeline_title_check check (char_length(title) between 1 and 300),
      constraint crm_timeline_dedupe_key_key unique (dedupe_key)
    );
    create index crm_timeline_client_idx on crm_timeline (client_id, occurred_at desc, id desc);
    create index crm_timeline_ref_idx on crm_timeline (ref_id) where ref_id is not null;
  `.execute(db);
}
