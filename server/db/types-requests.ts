/** Tables of what requests leave behind: the security event log and create routes' idempotency keys. */
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** The security event log (server/security). No foreign keys: the log outlives accounts. */
export interface SecurityEventsTable {
  id: Generated<string>;
  created_at: Generated<Date>;
  type: string;
  user_id: string | null;
  actor_id: string | null;
  email: string | null;
  ip: string | null;
  user_agent: string | null;
  /** jsonb: written as JSON text, read back parsed. */
  details: ColumnType<Record<string, unknown>, string, string>;
}

/** Idempotency keys of create routes (server/http/idempotency.ts). */
export interface IdempotencyKeysTable {
  /** `user:<id>` when signed in, `ip:<address>` on public routes. */
  scope: string;
  /** `METHOD /route/pattern`. */
  route: string;
  key: string;
  /** sha256 of the canonical JSON of the parsed body. */
  request_hash: string;
  state: Generated<"running" | "done">;
  /** Who holds the claim: a request whose lease was taken over can no longer write. */
  claim_id: string;
  /** While running: after this, the request is presumed dead and the key may be claimed again. */
  locked_until: NullableTimestamp;
  status: number | null;
  /** jsonb: the answer headers worth replaying (content-type, location), written as JSON text. */
  headers: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  body: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}
