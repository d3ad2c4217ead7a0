/**
 * A record's history as the API answers it (issue 31): shared by the server's routes
 * (server/resources/history) and the browser's History tab and admin page.
 */

export type HistoryAction = "created" | "updated" | "deleted";

/** Who or what made a change: a person, a person's CSV import or restore, an automation, a store sync. */
export type HistoryActorKind = "user" | "import" | "restore" | "automation" | "sync" | "system";

export interface HistoryActor {
  kind: HistoryActorKind;
  /** The person's id (user, import, restore), the automation's or the store connection's. */
  id: string | null;
  /** In words: "Asha Rao", "Automation “Welcome”", "Store sync “Main shop”". */
  name: string;
}

export interface HistoryChange {
  field: string;
  /** The value before (null on create), as stored (money and numbers as numbers, instants ISO). */
  from: unknown;
  /** The value after (null on delete). */
  to: unknown;
}

export interface HistoryEntry {
  id: string;
  resource: string;
  recordId: string;
  action: HistoryAction;
  /** ISO 8601, UTC. */
  at: string;
  actor: HistoryActor;
  /** Only the fields that changed, in the schema's order. */
  changes: HistoryChange[];
  /** The record's name (its `x-label` field) in a list of many records' changes; else absent. */
  recordLabel?: string | null;
  /** A version the entry is (CMS entries: each save, publish, restore is a numbered version). */
  version?: { number: number; kind: "save" | "publish" | "restore" };
}

export interface HistoryPage {
  data: HistoryEntry[];
  total: number;
  /** Whether `…/history/{entryId}/restore` restores from these entries (CMS entries restore versions instead). */
  restorable?: boolean;
}

/** Kept this many days unless HISTORY_RETENTION_DAYS says otherwise. */
export const DEFAULT_HISTORY_RETENTION_DAYS = 365;

const anyValue = {} as const;

/** JSON Schema of one entry (the routes' answers, the OpenAPI document). */
export const historyEntrySchema = {
  type: "object",
  required: ["id", "resource", "recordId", "action", "at", "actor", "changes"],
  properties: {
    id: { type: "string" },
    resource: { type: "string" },
    recordId: { type: "string", format: "uuid" },
    action: { type: "string", enum: ["created", "updated", "deleted"] },
    at: { type: "string", format: "date-time" },
    actor: {
      type: "object",
      required: ["kind", "id", "name"],
      properties: {
        kind: { type: "string", enum: ["user", "import", "restore", "automation", "sync", "system"] },
        id: { type: ["string", "null"] },
        name: { type: "string" },
      },
    },
    recordLabel: { type: ["string", "null"] },
    version: {
      type: "object",
      properties: {
        number: { type: "integer" },
        kind: { type: "string", enum: ["save", "publish", "restore"] },
      },
    },
    changes: {
      type: "array",
      items: {
        type: "object",
        required: ["field"],
        properties: { field: { type: "string" }, from: anyValue, to: anyValue },
      },
    },
  },
} as const;

export const historyPageSchema = {
  type: "object",
  required: ["data", "total"],
  properties: {
    data: { type: "array", items: historyEntrySchema },
    total: { type: "integer" },
    restorable: { type: "boolean" },
  },
} as const;
