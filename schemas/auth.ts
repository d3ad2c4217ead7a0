/**
 * Wire types of the platform API (sign-in, tokens, users, devices).
 * Shared by the server (answers) and the SPA (providers). Pure types and constants.
 */

/** Spec §6: selectable roles. */
export const ROLES = { admin: 2, user: 3 } as const;
export type RoleValue = (typeof ROLES)[keyof typeof ROLES];
export const ROLE_LABELS: Record<RoleValue, string> = { 2: "Admin", 3: "User" };
export type TypeUser = "ROLE_ADMIN" | "ROLE_USER";

/** Spec §3: the device info payload. deviceName is built from device and browser. */
export interface DeviceInfo {
  deviceId: string;
  deviceName: string;
}

export interface ModuleEntry {
  moduleID: number;
  key: string;
  name: string;
}

/**
 * `GET /api/users/me`: exactly the fields of the spec's user slice, as the server knows
 * them (`authorized` and `isLoading` are client state). `modules_submodules[0].modules`
 * holds the granted modules.
 */
export interface MeResponse {
  userID: string;
  first_name: string;
  last_name: string;
  email: string;
  plan_type: string;
  type_user: TypeUser;
  isadmin: boolean;
  approverCondition: boolean;
  userRights: string[];
  modules_submodules: Array<{ modules: ModuleEntry[]; submodules: ModuleEntry[] }>;
}

/** Token pair as sent by sign-in and refresh. Times: `*Expiry` epoch ms, `*Duration` seconds. */
export interface TokenPair {
  accessToken: string;
  accessTokenExpiry: number;
  accessTokenDuration: number;
  refreshToken: string;
  refreshTokenExpiry: number;
  refreshTokenDuration: number;
}

export interface SignInRequest {
  email: string;
  password: string;
  deviceInfo: DeviceInfo;
}

export interface SignInResponse extends TokenPair {
  user: MeResponse;
}

export interface RefreshRequest {
  refreshToken: string;
}

/** A user as the admin API returns it. */
export interface UserRecord {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  role: RoleValue;
  type_user: TypeUser;
  isadmin: boolean;
  plan_type: string;
  active: boolean;
  modules: number[];
  created_at: string;
  updated_at: string;
  last_seen_at: string | null;
  /** Invited and has not set a password yet (cannot sign in until then). */
  invite_pending: boolean;
  /** Has a confirmed second factor (TOTP). */
  second_factor: boolean;
}

/**
 * Body of `POST /api/users` (a password, or `invite: true` to mail a set-password link) and
 * `PATCH /api/users/{id}` (all optional; no `invite`).
 */
export interface UserWrite {
  first_name: string;
  last_name: string;
  email: string;
  password?: string;
  /** Create only: mail the user a link to set their own password instead of giving one. */
  invite?: boolean;
  role: RoleValue;
  plan_type?: string;
  active?: boolean;
  modules: number[];
}

/** Body of `POST /api/users/me/password`. */
export interface ChangePasswordRequest {
  currentPassword: string;
  newPassword: string;
  /** Also revoke every other session of the user (this one stays). */
  signOutOtherDevices?: boolean;
}

export interface DeviceRecord {
  deviceId: string;
  deviceName: string;
  browser: string;
  device: string;
  ip: string | null;
  lastSeenAt: string;
  createdAt: string;
  /** true while the device holds a live session. */
  signedIn: boolean;
  /**
   * How the live session's sign-in passed the second step: an app code, a recovery code, or
   * setting one up; null when it had none (or the device is signed out).
   */
  secondFactor: "totp" | "recovery" | "enrolled" | null;
  /** true for the device that made the request. */
  current: boolean;
}

export interface OutboxMail {
  id: string;
  to: string;
  cc: string[];
  bcc: string[];
  replyTo: string | null;
  /** File names of the mail's attachments. */
  attachments: string[];
  subject: string;
  text: string;
  /** The HTML part as sent (a CRM email's, with its tracking pixel and signed links), or null. */
  html: string | null;
  status: "stored" | "pending" | "sent" | "failed";
  created_at: string;
  sent_at: string | null;
  error: string | null;
}

/** Every error body (ARCHITECTURE.md §4). */
export interface ApiError {
  statusCode: number;
  error: string;
  message: string;
  details?: Array<{ field: string; message: string }>;
}

/** List answer of every list endpoint (ARCHITECTURE.md §3). */
export interface ListResponse<T> {
  data: T[];
  total: number;
  /** False when `total` is the planner's estimate (more than 10,000 matches); absent means exact. */
  totalExact?: boolean;
}

/** Minimum password length, checked on both sides. */
export const PASSWORD_MIN_LENGTH = 8;

/**
 * Why a session ended, in the words of the 406 answers (ARCHITECTURE.md §4). The sign-in
 * screen repeats them to a user the system signed out.
 */
export const ACCOUNT_DISABLED_MESSAGE = "This account is disabled";
export const DEVICE_SIGNED_OUT_MESSAGE = "You were signed out on this device";
