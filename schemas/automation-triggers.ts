/**
 * What can start an automation run: the trigger kinds and how people name them. Apart from
 * schemas/automation.ts (which re-exports them) so that the automations resource, part of the
 * app's first load, does not bring the whole automation model with it.
 */
export const TRIGGER_KINDS = [
  "client-created",
  "opportunity-stage-changed",
  "form-submitted",
  "cms-entry-published",
  "proposal-accepted",
  "cart-abandoned",
  "email-opened",
  "email-clicked",
  "record-created",
  "record-updated",
  "record-deleted",
  "schedule",
  "webhook",
  "manual",
  "automation-failed",
] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

export const TRIGGER_LABELS: Readonly<Record<TriggerKind, string>> = {
  "client-created": "Client created",
  "opportunity-stage-changed": "Opportunity stage changed",
  "form-submitted": "Form submitted",
  "cms-entry-published": "CMS entry published",
  "proposal-accepted": "Proposal accepted",
  "cart-abandoned": "Store cart abandoned",
  "email-opened": "Email opened",
  "email-clicked": "Link in an email clicked",
  "record-created": "Record created",
  "record-updated": "Record updated",
  "record-deleted": "Record deleted",
  schedule: "On a schedule",
  webhook: "Incoming webhook",
  manual: "Run by hand",
  "automation-failed": "Another automation failed",
};

/**
 * The trigger kinds of any entity (issue 30): a record of the trigger's `resource` — an engine
 * resource's name ("products") or a CMS type's `cms:<apiName>` — created, updated or deleted.
 */
export const RECORD_TRIGGER_KINDS = ["record-created", "record-updated", "record-deleted"] as const;
export type RecordTriggerKind = (typeof RECORD_TRIGGER_KINDS)[number];

export const isRecordTrigger = (kind: string): kind is RecordTriggerKind =>
  (RECORD_TRIGGER_KINDS as readonly string[]).includes(kind);

/** The prefix of a CMS type's entity name: `cms:<apiName>` ("cms:article"). */
export const CMS_ENTITY_PREFIX = "cms:";
