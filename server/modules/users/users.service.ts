/** Users, their module grants and their devices. SQL for these tables lives here. */
import { type Kysely, sql } from "kysely";
import { MODULES } from "../../../resources/modules";
import type { DeviceRecord, MeResponse, RoleValue, UserRecord, UserWrite } from "../../../schemas/auth";
import { voidPasswordLinks } from "../../auth/password-links";
import { assertAcceptablePassword, hashPassword } from "../../auth/passwords";
import { ROLE_ADMIN, sessionsChanged } from "../../auth/principal";
import { type ClientMeta, revokeAllSessions } from "../../auth/sessions.service";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { badRequest, conflict, notFound } from "../../http/errors";
import { type ListQuery, listPage } from "../../http/list-query";
import { recordSecurityEvent } from "../../security/events";

const typeUser = (role: number) => (role === ROLE_ADMIN ? "ROLE_ADMIN" : "ROLE_USER");

function userQuery(db: Kysely<Database>) {
  return db
    .selectFrom("users as u")
    .select([
      "u.id",
      "u.first_name",
      "u.last_name",
      "u.email",
      "u.role",
      "u.plan_type",
      "u.active",
      "u.created_at",
      "u.updated_at",
      sql<
        number[]
      >`array(select module_id from user_modules um where um.user_id = u.id order by module_id)`.as(
        "modules",
      ),
      sql<Date | null>`(select max(d.last_seen_at) from devices d where d.user_id = u.id)`.as("last_seen_at"),
      sql<boolean>`u.password_hash is null`.as("invite_pending"),
      sql<boolean>`exists (select 1 from user_second_factors f where f.user_id = u.id and f.confirmed_at is not null)`.as(
        "second_factor",
      ),
    ]);
}

type UserRow = Awaited<ReturnType<ReturnType<typeof userQuery>["executeTakeFirstOrThrow"]>>;

function toRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    role: row.role as RoleValue,
    type_user: typeUser(row.role),
    isadmin: row.role === ROLE_ADMIN,
    plan_type: row.plan_type,
    active: row.active,
    modules: row.modules.map(Number),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    last_seen_at: row.last_seen_at ? new Date(row.last_seen_at).toISOString() : null,
    invite_pending: row.invite_pending,
    second_factor: row.second_factor,
  };
}

export const USER_SORT_FIELDS = [
  "first_name",
  "last_name",
  "email",
  "role",
  "plan_type",
  "active",
  "created_at",
];
export const USER_FILTER_FIELDS = {
  role: "integer",
  active: "boolean",
  plan_type: "string",
  email: "string",
} as const;

export async function listUsers(ctx: AppContext, query: ListQuery) {
  const { rows, total } = await listPage(ctx.db, userQuery(ctx.db), query, {
    search: ["email", "first_name", "last_name"],
    table: "u",
    defaultSort: "-created_at",
    sortFields: USER_SORT_FIELDS,
    filterFields: USER_FILTER_FIELDS,
  });
  return { data: rows.map(toRecord), total };
}

export async function getUser(ctx: AppContext, id: string): Promise<UserRecord> {
  const row = await userQuery(ctx.db).where("u.id", "=", id).executeTakeFirst();
  if (!row) throw notFound("User not found");
  return toRecord(row);
}

function checkModules(modules: number[] | undefined) {
  if (!modules) return;
  const unknown = modules.filter((m) => !MODULES.some((d) => d.moduleID === m));
  if (unknown.length) {
    throw badRequest("Unknown module", [
      { field: "modules", message: `unknown module id ${unknown.join(", ")}` },
    ]);
  }
}

async function emailTaken(db: Kysely<Database>, email: string, exceptId?: string) {
  let q = db.selectFrom("users").select("id").where(sql<boolean>`lower(email) = ${email.toLowerCase()}`);
  if (exceptId) q = q.where("id", "!=", exceptId);
  return !!(await q.executeTakeFirst());
}

const EMAIL_TAKEN = () =>
  conflict("Email is already in use", [{ field: "email", message: "is already in use" }]);

export async function createUser(
  ctx: AppContext,
  input: UserWrite,
  actorId: string | null,
): Promise<UserRecord> {
  checkModules(input.modules);
  // Either the admin types a password, or the user gets an invitation to set their own.
  if (input.invite && input.password)
    throw badRequest("Choose either a password or an invitation email", [
      { field: "password", message: "leave it empty when sending an invitation email" },
    ]);
  if (!input.password && !input.invite)
    throw badRequest("Password is required", [{ field: "password", message: "is required" }]);
  // A disabled account could not use the link: no invitation is sent to one (as for a resend).
  if (input.invite && input.active === false)
    throw badRequest("A disabled user cannot be invited", [
      { field: "active", message: "enable the account to send an invitation email" },
    ]);
  if (input.password) await assertAcceptablePassword(input.password);
  if (await emailTaken(ctx.db, input.email)) throw EMAIL_TAKEN();
  // An invited user has no password (null) until they set one from the link.
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const id = await ctx.db.transaction().execute(async (trx) => {
    const user = await trx
      .insertInto("users")
      .values({
        email: input.email.trim().toLowerCase(),
        first_name: input.first_name.trim(),
        last_name: input.last_name.trim(),
        password_hash: passwordHash,
        role: input.role,
        plan_type: input.plan_type ?? "standard",
        active: input.active ?? true,
        created_by: actorId,
        updated_by: actorId,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await setModules(trx, user.id, input.modules);
    return user.id;
  });
  return getUser(ctx, id);
}

async function setModules(db: Kysely<Database>, userId: string, modules: number[]) {
  await db.deleteFrom("user_modules").where("user_id", "=", userId).execute();
  const unique = [...new Set(modules)];
  if (unique.length) {
    await db
      .insertInto("user_modules")
      .values(unique.map((module_id) => ({ user_id: userId, module_id })))
      .execute();
  }
}

export async function updateUser(
  ctx: AppContext,
  id: string,
  input: Partial<UserWrite>,
  actorId: string,
  meta: ClientMeta = { ip: null, userAgent: null },
): Promise<UserRecord> {
  const current = await getUser(ctx, id);
  checkModules(input.modules);
  if (id === actorId) {
    // An admin must not lock themselves out of user management.
    const details = [];
    if (input.role !== undefined && input.role !== ROLE_ADMIN)
      details.push({ field: "role", message: "you cannot remove your own admin role" });
    if (input.active === false)
      details.push({ field: "active", message: "you cannot disable your own account" });
    if (input.modules && !input.modules.includes(10))
      details.push({ field: "modules", message: "you cannot remove your own Users module" });
    if (details.length) throw badRequest("You cannot lock yourself out", details);
  }
  if (input.password) await assertAcceptablePassword(input.password);
  if (input.email && (await emailTaken(ctx.db, input.email, id))) throw EMAIL_TAKEN();
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set({
        ...(input.email !== undefined ? { email: input.email.trim().toLowerCase() } : {}),
        ...(input.first_name !== undefined ? { first_name: input.first_name.trim() } : {}),
        ...(input.last_name !== undefined ? { last_name: input.last_name.trim() } : {}),
        ...(input.role !== undefined ? { role: input.role } : {}),
        ...(input.plan_type !== undefined ? { plan_type: input.plan_type } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
        ...(passwordHash ? { password_hash: passwordHash } : {}),
        updated_at: new Date(),
        updated_by: actorId,
      })
      .where("id", "=", id)
      .execute();
    if (input.modules) await setModules(trx, id, input.modules);
    // A password set here makes any pending invitation or reset link useless; so does a new
    // email: a link mailed to the old address (a typo, a former owner) must not claim the account.
    const emailChanged =
      input.email !== undefined && input.email.trim().toLowerCase() !== current.email.toLowerCase();
    if (passwordHash || emailChanged) await voidPasswordLinks(trx, id);
    await recordUserChanges({ db: trx, log: ctx.log }, current, input, passwordHash !== undefined, {
      actorId,
      ...meta,
    });
  });
  await sessionsChanged(ctx, id); // role, modules or active may have changed
  if (passwordHash) await revokeAllSessions(ctx, id, "password_changed");
  const disabled = input.active === false && current.active;
  if (disabled) await revokeAllSessions(ctx, id, "disabled");
  const updated = await getUser(ctx, id);
  // The user's open pages follow at once: signed out, or menu and screens re-checked.
  if (disabled) ctx.accountEvents.publish({ type: "session-ended", userId: id, reason: "disabled" });
  else if (accessChanged(current, updated))
    ctx.accountEvents.publish({ type: "access-changed", userId: id, modules: updated.modules });
  return updated;
}

/** Whether what a user may open changed: their role, or their set of modules. */
export function accessChanged(
  before: Pick<UserRecord, "role" | "modules">,
  after: Pick<UserRecord, "role" | "modules">,
): boolean {
  if (before.role !== after.role) return true;
  const was = new Set(before.modules);
  const now = new Set(after.modules);
  return was.size !== now.size || [...now].some((m) => !was.has(m));
}

/** The security events of an admin's change to a user: grants, role, status, password. */
async function recordUserChanges(
  ctx: Pick<AppContext, "db" | "log">,
  current: UserRecord,
  input: Partial<UserWrite>,
  passwordSet: boolean,
  by: { actorId: string; ip: string | null; userAgent: string | null },
) {
  const base = { userId: current.id, email: current.email, ...by };
  if (input.modules) {
    const next = new Set(input.modules);
    const added = [...next].filter((m) => !current.modules.includes(m)).sort((a, b) => a - b);
    const removed = current.modules.filter((m) => !next.has(m));
    if (added.length || removed.length)
      await recordSecurityEvent(ctx, {
        type: "grant_changed",
        ...base,
        details: { added, removed, modules: [...next].sort((a, b) => a - b) },
      });
  }
  if (input.role !== undefined && input.role !== current.role)
    await recordSecurityEvent(ctx, {
      type: "role_changed",
      ...base,
      details: { from: current.role, to: input.role },
    });
  if (input.active !== undefined && input.active !== current.active)
    await recordSecurityEvent(ctx, { type: input.active ? "user_enabled" : "user_disabled", ...base });
  if (passwordSet)
    await recordSecurityEvent(ctx, { type: "password_changed", ...base, details: { by: "admin" } });
}

export async function deleteUser(ctx: AppContext, id: string, actorId: string) {
  if (id === actorId) throw badRequest("You cannot delete your own account");
  const result = await ctx.db.deleteFrom("users").where("id", "=", id).executeTakeFirst();
  if (!result.numDeletedRows) throw notFound("User not found");
  await sessionsChanged(ctx, id);
  ctx.accountEvents.publish({ type: "session-ended", userId: id, reason: "deleted" });
}

/** The signed-in user as the spec's user slice (MeResponse). */
export async function getMe(ctx: AppContext, userId: string): Promise<MeResponse> {
  const user = await getUser(ctx, userId);
  const granted = MODULES.filter((m) => user.modules.includes(m.moduleID)).map(({ moduleID, key, name }) => ({
    moduleID,
    key,
    name,
  }));
  return {
    userID: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    plan_type: user.plan_type,
    type_user: user.type_user,
    isadmin: user.isadmin,
    approverCondition: false,
    userRights: [],
    modules_submodules: [{ modules: granted, submodules: [] }],
  };
}

export async function listDevices(ctx: AppContext, userId: string, currentDeviceId: string | null) {
  const rows = await ctx.db
    .selectFrom("devices as d")
    .select([
      "d.device_id",
      "d.device_name",
      "d.browser",
      "d.device_kind",
      "d.ip",
      "d.last_seen_at",
      "d.created_at",
      sql<boolean>`exists (select 1 from sessions s where s.device_pk = d.id and s.revoked_at is null and s.expires_at > now())`.as(
        "signed_in",
      ),
      // How the live session's sign-in passed the second step (one live session per device).
      sql<
        DeviceRecord["secondFactor"]
      >`(select s.second_factor from sessions s where s.device_pk = d.id and s.revoked_at is null and s.expires_at > now() order by s.created_at desc limit 1)`.as(
        "second_factor",
      ),
    ])
    .where("d.user_id", "=", userId)
    .orderBy("d.last_seen_at", "desc")
    .execute();
  const data: DeviceRecord[] = rows.map((r) => ({
    deviceId: r.device_id,
    deviceName: r.device_name,
    browser: r.browser,
    device: r.device_kind,
    ip: r.ip,
    lastSeenAt: new Date(r.last_seen_at).toISOString(),
    createdAt: new Date(r.created_at).toISOString(),
    signedIn: r.signed_in,
    secondFactor: r.second_factor ?? null,
    current: r.device_id === currentDeviceId,
  }));
  return { data, total: data.length };
}
