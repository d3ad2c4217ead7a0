/**
 * A security event's details in words, for the log's table. Pure: the unit test beside it
 * reads the same sentences an admin reads.
 */
import { MODULES } from "../../../resources/modules";
import { ROLE_LABELS, type RoleValue } from "../../../schemas/auth";
import type { SecurityEventRecord } from "../../../schemas/security-events";

const moduleName = (id: unknown) => MODULES.find((m) => m.moduleID === id)?.name ?? `module ${String(id)}`;
const names = (ids: unknown) => (Array.isArray(ids) ? ids.map(moduleName).join(", ") : "");
const roleName = (role: unknown) => ROLE_LABELS[role as RoleValue] ?? String(role);

const REASONS: Record<string, string> = {
  wrong_password: "wrong password",
  unknown_account: "no account with this email",
  disabled: "account disabled",
  wrong_code: "wrong code",
};
/** How a sign-in passed its second step (issue 26). */
const SECOND_STEPS: Record<string, string> = {
  totp: "with an app code",
  recovery: "with a recovery code",
  enrolled: "after setting up an authenticator app",
};
const ACTIONS: Record<string, string> = {
  signin: "sign-in attempts",
  password_reset_request: "password reset requests",
  password_reset: "password reset attempts",
};

/**
 * @example
 * describeEvent({ type: "grant_changed", details: { added: [1], removed: [] } }) // "Granted: PDF library"
 */
export function describeEvent(event: Pick<SecurityEventRecord, "type" | "details">): string {
  const d = event.details ?? {};
  switch (event.type) {
    case "signin": {
      const parts = [
        d.deviceName ? `on ${String(d.deviceName)}` : "",
        SECOND_STEPS[String(d.secondFactor)] ?? "",
      ];
      return parts.filter(Boolean).join(", ");
    }
    case "signin_failed":
      return REASONS[String(d.reason)] ?? "";
    case "lockout": {
      if (d.scope === "second_factor") return "too many wrong codes for this account";
      const action = ACTIONS[String(d.action)] ?? String(d.action ?? "attempts");
      return d.scope === "ip" ? `too many ${action} from this IP` : `too many ${action} for this account`;
    }
    case "password_reset_requested":
      return d.accountFound
        ? d.linkSent
          ? "link sent"
          : "account disabled: no link sent"
        : "no such account";
    case "password_reset":
      return d.kind === "invite" ? "set from an invitation" : "";
    case "grant_changed": {
      const parts = [];
      if (Array.isArray(d.added) && d.added.length) parts.push(`Granted: ${names(d.added)}`);
      if (Array.isArray(d.removed) && d.removed.length) parts.push(`Removed: ${names(d.removed)}`);
      return parts.join(" · ");
    }
    case "role_changed":
      return `${roleName(d.from)} → ${roleName(d.to)}`;
    case "device_revoked":
      return d.deviceName ? String(d.deviceName) : String(d.deviceId ?? "");
    case "password_changed":
      return d.by === "admin" ? "set by an admin" : "";
    case "recovery_code_used":
      return d.recoveryCodesLeft === 1 ? "1 code left" : `${String(d.recoveryCodesLeft ?? "?")} codes left`;
    case "second_factor_reset":
      return d.hadSecondFactor === false ? "had none set up" : "";
    case "second_factor_policy_changed":
      return `required for: ${String(d.from)} → ${String(d.to)}`;
    default:
      return "";
  }
}
