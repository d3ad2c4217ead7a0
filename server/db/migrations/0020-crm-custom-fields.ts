/**
 * CRM custom fields (issue 16, spec §3 `customFieldsData`): the definitions of the fields admins
 * add at run time to clients and opportunities. Their values live in each record's `custom`
 * jsonb column (0017), so adding a field is a row here, never a migration. `entity` is the
 * entity's `x-custom` key; `list` names the dropdown list an `enum` field takes its options from.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table crm_custom_fields (
      id uuid primary key default gen_random_uuid(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid references users (id) on delete set null,
      updated_by uuid references users (id) on delete set null,
      entity text not null,
      key text not null,
      label text not null,
      type text not null,
      list text,
      required boolean not null default false,
      position integer not null default 0,
      description text,
      constraint crm_custom_fields_entity_key_key unique (entity, key),
      constraint crm_custom_fields_key_check check (key ~ '^[a-z][a-z0-9_]{0,39}$'),
      constraint crm_custom_fields_label_check check (char_length(label) between 1 and 80),
      constraint crm_custom_fields_type_check
        check (type in ('text', 'number', 'date', 'enum', 'boolean', 'email', 'url')),
      constraint crm_custom_fields_list_check check ((type = 'enum') = (list is not null)),
      constraint crm_custom_fields_description_check check (char_length(description) <= 300)
    );
  `.execute(db);
}
