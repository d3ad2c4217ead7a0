/**
 * Tables of the CRM module (issue 16): clients, opportunities, dropdown options, tasks,
 * message templates and the timeline. Part of the one Database interface (types.ts).
 */
import type { ColumnType, Generated } from "kysely";
import type { OpportunityStatus, TimelineKind } from "../../schemas/crm";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb written as JSON text (cast in SQL) and read back parsed. */
type Json<T> = ColumnType<T, string | undefined, string>;
/** numeric comes back as text. */
type Numeric = ColumnType<string, number | string | undefined, number | string>;

interface Audit {
  id: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  updated_by: string | null;
}

export interface ClientsTable extends Audit {
  name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  job_title: string | null;
  owner_id: string | null;
  source: string | null;
  industry: string | null;
  tags: Json<string[]>;
  consent_email: Generated<boolean>;
  consent_sms: Generated<boolean>;
  sms_opted_out_at: NullableTimestamp;
  first_touch: string | null;
  last_activity_at: NullableTimestamp;
  custom: Json<Record<string, unknown>>;
}

export interface OpportunitiesTable extends Audit {
  title: string;
  client_id: string;
  value: Numeric;
  currency: Generated<string>;
  stage: string;
  status: Generated<OpportunityStatus>;
  lost_reason: string | null;
  close_note: string | null;
  owner_id: string | null;
  expected_close: ColumnType<string | null, string | null | undefined, string | null>;
  closed_at: NullableTimestamp;
  position: Generated<number>;
  custom: Json<Record<string, unknown>>;
}

export interface CrmDropdownsTable extends Audit {
  list: string;
  value: string;
  label: string;
  position: Generated<number>;
  probability: number | null;
  color: string | null;
  archived: Generated<boolean>;
}

export interface CrmTasksTable extends Audit {
  title: string;
  notes: string | null;
  client_id: string | null;
  opportunity_id: string | null;
  due_at: NullableTimestamp;
  remind_at: NullableTimestamp;
  assignee_id: string | null;
  done: Generated<boolean>;
  done_at: NullableTimestamp;
}

export interface CrmTemplatesTable extends Audit {
  name: string;
  channel: "email" | "sms";
  subject: string | null;
  body: string;
}

export interface CrmTimelineTable {
  id: Generated<string>;
  client_id: string;
  kind: TimelineKind;
  occurred_at: Timestamp;
  actor_id: string | null;
  title: string;
  body: string | null;
  data: Json<Record<string, unknown>>;
  ref_id: string | null;
  dedupe_key: string | null;
}

/** The CRM's tables, as the Database interface holds them. */
export interface CrmTables {
  clients: ClientsTable;
  opportunities: OpportunitiesTable;
  crm_dropdowns: CrmDropdownsTable;
  crm_tasks: CrmTasksTable;
  crm_templates: CrmTemplatesTable;
  crm_timeline: CrmTimelineTable;
}
