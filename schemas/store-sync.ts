/**
 * The store sync (issue 18): what `/api/store/sync` takes and answers, and the store product list
 * (`/api/store/products`). Shared by the server's route schemas and the SPA.
 */

/** A sync waits its turn (`queued`), runs, then has `finished` (its report is complete) or `failed`. */
export const STORE_SYNC_STATUSES = ["queued", "running", "finished", "failed"] as const;
export type StoreSyncStatus = (typeof STORE_SYNC_STATUSES)[number];

/**
 * What a sync did with one store product or variant: `conflict` is an update where the catalogue
 * had changed too (the store's version is kept).
 */
export const STORE_SYNC_ACTIONS = ["created", "updated", "skipped", "conflict"] as const;
export type StoreSyncAction = (typeof STORE_SYNC_ACTIONS)[number];

/** One line of a sync's report. */
export interface StoreSyncRow {
  /** The store's SKU ("" when it has none). */
  sku: string;
  action: StoreSyncAction;
  /** Why, in words (empty for a plain create or update). */
  reason: string;
  /** The store's product id, and the variant's when the line is a variant. */
  bcProductId: number;
  bcVariantId: number | null;
}

export interface StoreSync {
  id: string;
  connectionId: string;
  status: StoreSyncStatus;
  /** Store products to look at (variants count with their product), and how many are done. */
  total: number;
  done: number;
  counts: { created: number; updated: number; skipped: number; conflicts: number };
  /** Why a failed sync stopped, in words. */
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface StoreSyncWithReport extends StoreSync {
  report: StoreSyncRow[];
}

/** The words of a conflict's line: the spec's rule, said once. */
export const CONFLICT_REASON = "changed in both; the store's version kept";

/** Body of `POST /api/store/sync`. */
export const startStoreSyncSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    connectionId: {
      type: "string",
      format: "uuid",
      title: "Store",
      description: "The connected store to sync; the default store when left out",
    },
  },
} as const;

export interface StartStoreSync {
  connectionId?: string;
}

/** The link of a catalogue product to its store product, as the store product list shows it. */
export interface StoreProductLink {
  connectionId: string;
  bcProductId: number;
  bcVariantId: number | null;
  storeModifiedAt: string | null;
  syncedAt: string;
}
