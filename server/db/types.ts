/** The one Database interface: every table the server reads or writes (Kysely). */
import type { ColumnType, Generated } from "kysely";
import type { AutomationTables } from "./types-automations";
import type {
  CmsApiTokensTable,
  CmsDomainsTable,
  CmsEntriesTable,
  CmsNavigationsTable,
  ContentTypesTable,
  RecordVersionsTable,
  WebhookDeliveriesTable,
  WebhooksTable,
} from "./types-content";
import type { CrmTables } from "./types-crm";
import type { CrmCalendarTables } from "./types-crm-calendar";
import type { CrmEmailTables } from "./types-crm-email";
import type { CrmFieldTables } from "./types-crm-fields";
import type { CrmSequenceTables } from "./types-crm-sequences";
import type {
  FormDefinitionsTable,
  FormFilesTable,
  FormPartialsTable,
  FormStatsTable,
  FormSubmissionsTable,
  FormsTable,
} from "./types-forms";
import type { HistoryTables } from "./types-history";
import type { NotificationsTable } from "./types-notifications";
import type { ProposalTables } from "./types-proposals";
import type { IdempotencyKeysTable, SecurityEventsTable } from "./types-requests";
import type { RunDefinitionsTable, RunStepsTable, RunsTable } from "./types-runs";
import type { SecondFactorTables } from "./types-second-factor";
import type { StoreTables } from "./types-store";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface ModulesTable {
  module_id: number;
  key: string;
  name: string;
  description: string;
  icon: string;
}

export interface UsersTable {
  id: Generated<string>;
  email: string;
  first_name: string;
  last_name: string;
  /** null while an invited user has not set a password yet (sign-in always fails). */
  password_hash: string | null;
  role: number;
  plan_type: string;
  active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  updated_by: string | null;
}

export interface UserModulesTable {
  user_id: string;
  module_id: number;
}

export interface DevicesTable {
  id: Generated<string>;
  user_id: string;
  device_id: string;
  device_name: string;
  browser: string;
  device_kind: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  device_pk: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  /** 'logout' answers 406 afterwards; any other reason answers 401. */
  revoked_reason: string | null;
  /** Last request or refresh, written at most once a minute (idle timeout). */
  last_active_at: Timestamp;
  /** How its sign-in passed the second step: 'totp', 'recovery', 'enrolled'; null without one. */
  second_factor: "totp" | "recovery" | "enrolled" | null;
}

export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  rotated_at: NullableTimestamp;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  /** 'reset' (forgot password) or 'invite' (set-password link of a new user). */
  kind: ColumnType<"reset" | "invite", "reset" | "invite" | undefined, "reset" | "invite">;
}

export interface MailOutboxTable {
  id: Generated<string>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: string;
  attempts: Generated<number>;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
  locked_until: NullableTimestamp;
  error: string | null;
  /** The secret link this mail carries (a reset link); cleared once used or expired. */
  secret_link: ColumnType<string | null, string | null | undefined, string | null>;
  secret_hash: ColumnType<string | null, string | null | undefined, string | null>;
  secret_expires_at: NullableTimestamp;
  cc: ColumnType<string[], string | undefined, string>;
  bcc: ColumnType<string[], string | undefined, string>;
  reply_to: ColumnType<string | null, string | null | undefined, string | null>;
  /** An iCalendar part (a meeting invitation): its iTIP method and text. */
  calendar_method: ColumnType<string | null, string | null | undefined, string | null>;
  calendar_ics: ColumnType<string | null, string | null | undefined, string | null>;
  /** The Message-ID header (a CRM mail threads its replies by it); null: the transport's own. */
  message_id: ColumnType<string | null, string | null | undefined, string | null>;
  in_reply_to: ColumnType<string | null, string | null | undefined, string | null>;
  /** The sender's display name, with MAIL_FROM's address (a CRM user's name). */
  from_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** Files from storage, read when the mail is sent. */
  attachments: ColumnType<OutboxAttachment[], string | undefined, string>;
}

/** A file of a mail in the outbox: a storage key, streamed to the transport at send time. */
export interface OutboxAttachment {
  storageKey: string;
  filename: string;
  contentType: string;
  size: number;
}

export interface RateLimitsTable {
  key: string;
  window_start: Timestamp;
  count: number;
}

export interface AppSettingsTable {
  key: string;
  value: string;
}

export interface DamFoldersTable {
  id: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  updated_by: string | null;
  name: string;
  parent_id: string | null;
}

export interface DamAssetsTable {
  id: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  updated_by: string | null;
  folder_id: string | null;
  name: string;
  original_name: string;
  storage_key: string;
  mime: string;
  /** bigint: pg answers it as a string. */
  size: ColumnType<string, number, number>;
  width: number | null;
  height: number | null;
  alt: Generated<string>;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  caption: Generated<string>;
  focal_x: number | null;
  focal_y: number | null;
}

/** The durable job queue (server/jobs). */
export interface JobsTable {
  id: Generated<string>;
  name: string;
  /** jsonb: written as JSON text (cast in SQL), read back parsed. */
  payload: ColumnType<unknown, string, string>;
  state: Generated<"queued" | "running" | "done" | "failed">;
  /** Times the job has been taken (the running one included). */
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_at: Timestamp;
  locked_by: string | null;
  locked_until: NullableTimestamp;
  last_error: string | null;
  /** Singleton key: unique per name among queued and running jobs. */
  key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: NullableTimestamp;
}

/** PDF library: the catalogue itself (schemas/pdfs.ts; the engine serves its generic routes). */
export interface PdfsTable {
  id: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  updated_by: string | null;
  name: string;
  slug: string | null;
  pdfstatus: Generated<boolean>;
  pdflist_status: "queued" | "processing" | "ready" | "error" | null;
  processing_text: string | null;
  progress: number | null;
  error_message: string | null;
  error_detail: string | null;
  page_count: number | null;
  file_size: number | null;
  original_name: string | null;
  file_key: string | null;
  file_url: string | null;
  thumbnail_url: string | null;
  version: number | null;
  processed_at: NullableTimestamp;
}

/** An object being made on demand by one instance (server/storage/on-demand.ts). */
export interface OnDemandClaimsTable {
  key: string;
  owner: string;
  expires_at: Timestamp;
}

/** jsonb written as JSON text (cast in SQL) and read back parsed. */
type Json<T> = ColumnType<T, string, string>;

export interface PdfPagesTable {
  pdf_id: string;
  page: number;
  version: number;
  /** Page size in PDF points. */
  width: number;
  height: number;
  text: Generated<string>;
  words: Json<{ text: string; x: number; y: number; w: number; h: number }[]>;
  /** Storage key of each rendered width: `{ "320": "pdfs/…/p1-w320.jpg", … }`. */
  images: Json<Record<string, string>>;
  links_revision: Generated<number>;
}

export interface PdfLinksTable {
  id: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  updated_by: string | null;
  pdf_id: string;
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
  kind: string;
  target: Json<Record<string, unknown>>;
  button: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  position: number;
}

export interface PdfEventsTable {
  id: Generated<string>;
  created_at: Timestamp;
  pdf_id: string;
  type: "view" | "search" | "click";
  visitor_id: string;
  page: number | null;
  word: string | null;
  link_id: string | null;
}

export interface PdfUploadsTable {
  id: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  name: string;
  original_name: string;
  /** bigint: pg answers it as a string. */
  size: ColumnType<string, number, number>;
  chunk_size: number;
  received: ColumnType<number[], number[] | undefined, number[]>;
  pdf_id: string | null;
}

/** Per-user preferences (server/modules/preferences). */
export interface UserPreferencesTable {
  user_id: string;
  key: string;
  /** jsonb: written as JSON text, read back parsed. */
  value: ColumnType<unknown, string, string>;
  updated_at: Timestamp;
}

export interface Database
  extends AutomationTables,
    CrmTables,
    CrmCalendarTables,
    CrmEmailTables,
    CrmFieldTables,
    CrmSequenceTables,
    HistoryTables,
    ProposalTables,
    SecondFactorTables,
    StoreTables {
  modules: ModulesTable;
  users: UsersTable;
  user_modules: UserModulesTable;
  devices: DevicesTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  password_resets: PasswordResetsTable;
  mail_outbox: MailOutboxTable;
  rate_limits: RateLimitsTable;
  app_settings: AppSettingsTable;
  dam_folders: DamFoldersTable;
  dam_assets: DamAssetsTable;
  jobs: JobsTable;
  pdfs: PdfsTable;
  pdf_pages: PdfPagesTable;
  pdf_links: PdfLinksTable;
  pdf_events: PdfEventsTable;
  pdf_uploads: PdfUploadsTable;
  security_events: SecurityEventsTable;
  idempotency_keys: IdempotencyKeysTable;
  on_demand_claims: OnDemandClaimsTable;
  user_preferences: UserPreferencesTable;
  record_versions: RecordVersionsTable;
  content_types: ContentTypesTable;
  cms_entries: CmsEntriesTable;
  cms_api_tokens: CmsApiTokensTable;
  cms_navigations: CmsNavigationsTable;
  cms_domains: CmsDomainsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  forms: FormsTable;
  form_definitions: FormDefinitionsTable;
  form_submissions: FormSubmissionsTable;
  form_stats: FormStatsTable;
  form_files: FormFilesTable;
  form_partials: FormPartialsTable;
  notifications: NotificationsTable;
  run_definitions: RunDefinitionsTable;
  runs: RunsTable;
  run_steps: RunStepsTable;
}
