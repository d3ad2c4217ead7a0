/**
 * JSON Schemas of the platform's request bodies. The server validates with them and the
 * OpenAPI document shows them; the SPA may reuse them for the same verdict client-side.
 */
import { MODULES } from "../resources/modules";
import { PASSWORD_MIN_LENGTH, ROLES } from "./auth";

const email = { type: "string", format: "email", minLength: 3, maxLength: 254, title: "Email" } as const;
const password = {
  type: "string",
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: 200,
  title: "Password",
} as const;

export const deviceInfoSchema = {
  type: "object",
  required: ["deviceId", "deviceName"],
  additionalProperties: false,
  properties: {
    deviceId: { type: "string", minLength: 1, maxLength: 300 },
    deviceName: { type: "string", minLength: 1, maxLength: 200 },
  },
} as const;

export const signInBodySchema = {
  type: "object",
  required: ["email", "password", "deviceInfo"],
  additionalProperties: false,
  properties: {
    email: { type: "string", minLength: 1, maxLength: 254, title: "Email" },
    password: { type: "string", minLength: 1, maxLength: 200, title: "Password" },
    deviceInfo: deviceInfoSchema,
  },
} as const;

export const refreshBodySchema = {
  type: "object",
  required: ["refreshToken"],
  additionalProperties: false,
  properties: { refreshToken: { type: "string", minLength: 1, maxLength: 200 } },
} as const;

export const logoutBodySchema = {
  type: "object",
  additionalProperties: false,
  properties: { deviceInfo: deviceInfoSchema },
} as const;

export const forgotPasswordBodySchema = {
  type: "object",
  required: ["email"],
  additionalProperties: false,
  properties: { email },
} as const;

export const resetPasswordBodySchema = {
  type: "object",
  required: ["id", "password"],
  additionalProperties: false,
  properties: { id: { type: "string", minLength: 1, maxLength: 200 }, password },
} as const;

export const resetLinkInfoBodySchema = {
  type: "object",
  required: ["id"],
  additionalProperties: false,
  properties: { id: { type: "string", minLength: 1, maxLength: 200 } },
} as const;

/** `POST /api/users/me/password`: the signed-in user changes their own password. */
export const changePasswordBodySchema = {
  type: "object",
  required: ["currentPassword", "newPassword"],
  additionalProperties: false,
  properties: {
    currentPassword: { type: "string", minLength: 1, maxLength: 200, title: "Current password" },
    newPassword: { ...password, title: "New password" },
    signOutOtherDevices: { type: "boolean", title: "Sign out my other devices" },
  },
} as const;

const userProperties = {
  first_name: { type: "string", minLength: 1, maxLength: 100, title: "First name" },
  last_name: { type: "string", minLength: 1, maxLength: 100, title: "Last name" },
  email,
  password,
  role: {
    type: "integer",
    enum: [ROLES.admin, ROLES.user],
    "x-enumLabels": ["Admin", "User"],
    title: "Role",
  },
  plan_type: { type: "string", minLength: 1, maxLength: 50, title: "Plan type" },
  active: { type: "boolean", title: "Active" },
  modules: {
    type: "array",
    title: "Modules",
    uniqueItems: true,
    maxItems: MODULES.length,
    items: { type: "integer", enum: MODULES.map((m) => m.moduleID) },
  },
} as const;

/**
 * `POST /api/users`: either a `password`, or `invite: true` to mail the user a set-password
 * link instead (the service says which is missing, on the field, in words).
 */
export const userCreateBodySchema = {
  type: "object",
  required: ["first_name", "last_name", "email", "role", "modules"],
  additionalProperties: false,
  properties: {
    ...userProperties,
    invite: { type: "boolean", title: "Send an invitation email" },
  },
} as const;

export const userUpdateBodySchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: userProperties,
} as const;
