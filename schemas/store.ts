/**
 * The online store's connections (issue 18, spec §9: commerce platform 13 is BigCommerce): what
 * `/api/store/connections` takes and answers, shared by the server's route schemas and the SPA.
 * The API token is taken, sealed and never answered.
 */

/** Commerce platforms by their id (spec §9); another platform is one more adapter. */
export const COMMERCE_PLATFORMS = { 13: "BigCommerce" } as const;
export type PlatformId = keyof typeof COMMERCE_PLATFORMS;
export const BIGCOMMERCE = 13 as const;

/** A connection works (`connected`), or its last check or use failed (`failing`: look at it). */
export const STORE_CONNECTION_STATUSES = ["connected", "failing"] as const;
export type StoreConnectionStatus = (typeof STORE_CONNECTION_STATUSES)[number];

export interface StoreConnection {
  id: string;
  platform: PlatformId;
  name: string;
  storeHash: string;
  /** The store's own name and currency, as its last check read them. */
  storeName: string | null;
  currency: string | null;
  isDefault: boolean;
  status: StoreConnectionStatus;
  lastCheckedAt: string | null;
  /** Why the last check or use failed, in words (null when it worked). */
  lastError: string | null;
  lastSyncAt: string | null;
  /** Whether the store's webhooks are registered (carts and products kept current by them). */
  webhooks: "none" | "registered" | "failing";
  webhooksError: string | null;
  createdAt: string;
}

/** What a connection test answers: the store as it introduced itself, or why it could not. */
export type StoreCheck =
  | { ok: true; storeName: string; currency: string; checkedAt: string }
  | { ok: false; field: "storeHash" | "token" | null; message: string; checkedAt: string };

const storeHash = {
  type: "string",
  title: "Store hash",
  description: "The code in your store's API path: api.bigcommerce.com/stores/<store hash>/v3",
  minLength: 1,
  maxLength: 40,
  pattern: "^[A-Za-z0-9]+$",
  "x-patternMessage": "may only contain letters and digits",
} as const;

const token = {
  type: "string",
  title: "API token",
  description: "The access token of a store-level API account (products, carts: modify)",
  minLength: 8,
  maxLength: 500,
  // Printable ASCII only: what an HTTP header (X-Auth-Token) can carry, so no CR/LF, NUL or €.
  pattern: "^[\\x21-\\x7E]+$",
  "x-patternMessage": "may only contain letters, digits and punctuation (no spaces)",
} as const;

const name = {
  type: "string",
  title: "Name",
  minLength: 1,
  maxLength: 120,
  pattern: "\\S",
  "x-patternMessage": "must not be blank",
} as const;

/** Body of `POST /api/store/connections`: checked against the store before it is saved. */
export const createStoreConnectionSchema = {
  type: "object",
  additionalProperties: false,
  required: ["name", "storeHash", "token"],
  properties: {
    platform: { type: "integer", title: "Platform", enum: [BIGCOMMERCE], default: BIGCOMMERCE },
    name,
    storeHash,
    token,
    isDefault: { type: "boolean", title: "Default store" },
  },
} as const;

/** Body of `PATCH /api/store/connections/{id}`: a new token is checked before it is kept. */
export const updateStoreConnectionSchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: { name, token, isDefault: { type: "boolean", title: "Default store", enum: [true] } },
} as const;

export interface CreateStoreConnection {
  platform?: PlatformId;
  name: string;
  storeHash: string;
  token: string;
  isDefault?: boolean;
}

export interface UpdateStoreConnection {
  name?: string;
  token?: string;
  isDefault?: true;
}

export const CART_SOURCES = ["store", "catalogue", "proposal"] as const;
export const CART_SOURCE_LABELS: Readonly<Record<(typeof CART_SOURCES)[number], string>> = {
  store: "Online store",
  catalogue: "Catalogue viewer",
  proposal: "Proposal",
};
export const CART_STATUSES = ["abandoned", "checked_out", "converted"] as const;
export const CART_STATUS_LABELS: Readonly<Record<(typeof CART_STATUSES)[number], string>> = {
  abandoned: "Abandoned",
  checked_out: "Sent to checkout",
  converted: "Ordered",
};

/** A cart of the carts list (`/api/store/carts`). Money in integer minor units. */
export interface StoreCart {
  id: string;
  source: (typeof CART_SOURCES)[number];
  status: (typeof CART_STATUSES)[number];
  connectionId: string | null;
  /** The store's id of the cart. */
  externalId: string | null;
  /** The catalogue (PDF) a viewer's cart came from. */
  pdfId: string | null;
  pdfTitle: string | null;
  /** The proposal a cart was made from, and its number. */
  proposalId: string | null;
  proposalNumber: string | null;
  clientId: string | null;
  clientName: string | null;
  customerName: string | null;
  email: string | null;
  currency: string;
  totalMinor: number;
  itemCount: number;
  items: { sku: string; name: string; quantity: number; priceMinor: number }[];
  checkoutUrl: string | null;
  orderId: string | null;
  /** When the cart last changed: its age. */
  cartUpdatedAt: string;
  createdAt: string;
}
