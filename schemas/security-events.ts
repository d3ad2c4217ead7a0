/**
 * The security event log's wire types (`GET /api/security-events`), shared by the server and
 * the admin screen. Pure data: no React, no Node-only imports.
 */

/** Every kind of event the log records, in the order the screen lists them. */
export const SECURITY_EVENT_TYPES = [
  "signin",
  "signin_failed",
  "lockout",
  "password_reset_requested",
  "password_reset",
  "password_changed",
  "user_invited",
  "grant_changed",
  "role_changed",
  "device_revoked",
  "user_disabled",
  "user_enabled",
  "second_factor_enabled",
  "second_factor_disabled",
  "second_factor_reset",
  "recovery_code_used",
  "recovery_codes_regenerated",
  "second_factor_policy_changed",
] as const;

export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

/** What an admin reads for each type (filter options, table tags). */
export const SECURITY_EVENT_LABELS: Record<SecurityEventType, string> = {
  signin: "Signed in",
  signin_failed: "Sign-in failed",
  lockout: "Locked out (too many attempts)",
  password_reset_requested: "Password reset requested",
  password_reset: "Password reset",
  password_changed: "Password changed",
  user_invited: "User invited",
  grant_changed: "Module access changed",
  role_changed: "Role changed",
  device_revoked: "Device signed out",
  user_disabled: "User disabled",
  user_enabled: "User enabled",
  second_factor_enabled: "Second factor set up",
  second_factor_disabled: "Second factor turned off",
  second_factor_reset: "Second factor reset by an admin",
  recovery_code_used: "Recovery code used",
  recovery_codes_regenerated: "New recovery codes",
  second_factor_policy_changed: "Second factor requirement changed",
};

/** One row of the log as the API answers it. */
export interface SecurityEventRecord {
  id: string;
  created_at: string;
  type: SecurityEventType;
  /** The user the event concerns, and their current email (null once deleted or unknown). */
  user_id: string | null;
  user_email: string | null;
  /** Who caused it when not the user themself (an admin). */
  actor_id: string | null;
  actor_email: string | null;
  /** The email given (a failed sign-in keeps it even when no account matches). */
  email: string | null;
  ip: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
}

/** Fields the list accepts in `filters` (Refine CrudFilters) and their types. */
export const SECURITY_EVENT_FILTER_FIELDS = {
  type: "string",
  user_id: "uuid",
  actor_id: "uuid",
  email: "string",
  ip: "string",
  created_at: "date",
} as const;

export const SECURITY_EVENT_SORT_FIELDS = ["created_at", "type", "email", "ip"] as const;
