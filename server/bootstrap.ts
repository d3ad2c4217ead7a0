/**
 * First-run setup, idempotent on every start: the module catalogue, the JWT secret
 * (kept in the database so every instance shares it) and the first admin.
 */
import { randomBytes } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import { MODULES } from "../resources/modules";
import { hashPassword, isCommonPassword } from "./auth/passwords";
import { ROLE_ADMIN } from "./auth/principal";
import { type Config, ConfigError } from "./config";
import type { Database } from "./db";

export async function seedModules(db: Kysely<Database>) {
  await db
    .insertInto("modules")
    .values(
      MODULES.map((m) => ({
        module_id: m.moduleID,
        key: m.key,
        name: m.name,
        description: m.description,
        icon: m.icon,
      })),
    )
    .onConflict((oc) =>
      oc.column("module_id").doUpdateSet((eb) => ({
        key: eb.ref("excluded.key"),
        name: eb.ref("excluded.name"),
        description: eb.ref("excluded.description"),
        icon: eb.ref("excluded.icon"),
      })),
    )
    .execute();
}

/** JWT_SECRET when set; otherwise one generated on first start and stored in the database. */
export async function loadJwtSecret(db: Kysely<Database>, configured: string | null): Promise<string> {
  if (configured) return configured;
  await db
    .insertInto("app_settings")
    .values({ key: "jwt_secret", value: randomBytes(48).toString("base64url") })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  const row = await db
    .selectFrom("app_settings")
    .select("value")
    .where("key", "=", "jwt_secret")
    .executeTakeFirstOrThrow();
  return row.value;
}

/** Creates the first admin when no user exists. Returns the generated password, if any. */
export async function ensureFirstAdmin(db: Kysely<Database>, config: Config, log: FastifyBaseLogger) {
  const any = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  if (any) return null;
  // The first admin's password is a new password like any other: no common ones.
  if (config.adminPassword && (await isCommonPassword(config.adminPassword))) {
    throw new ConfigError("ADMIN_PASSWORD is a common password that is easy to guess: choose another");
  }
  const generated = config.adminPassword ? null : randomBytes(12).toString("base64url");
  const password = config.adminPassword ?? (generated as string);
  const hash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    const admin = await trx
      .insertInto("users")
      .values({
        email: config.adminEmail,
        first_name: "Admin",
        last_name: "User",
        password_hash: hash,
        role: ROLE_ADMIN,
        plan_type: "enterprise",
        created_by: null,
        updated_by: null,
      })
      .onConflict((oc) => oc.doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!admin) return;
    await trx
      .insertInto("user_modules")
      .values(MODULES.map((m) => ({ user_id: admin.id, module_id: m.moduleID })))
      .execute();
  });
  if (generated) {
    // Printed once, on the first start only: nowhere else is it recoverable.
    const line = `First admin created: ${config.adminEmail} / ${generated} (shown once; change it after signing in)`;
    process.stdout.write(`\n${"=".repeat(line.length)}\n${line}\n${"=".repeat(line.length)}\n\n`);
  } else {
    log.info({ email: config.adminEmail }, "first admin created");
  }
  return generated;
}
