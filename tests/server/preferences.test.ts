/**
 * Per-user preferences over real HTTP on PGlite and PostgreSQL: a user reads and writes only
 * their own rows, a value survives signing out and follows the user to another device, bad
 * keys and values are 400s with per-field messages in words, big values are refused, and
 * nothing answers without a token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PREFERENCE_KEY_RULE,
  PREFERENCE_VALUE_MAX_BYTES,
  PREFERENCES_PER_USER_MAX,
  type PreferenceRecord,
} from "../../schemas/preferences";
import { DRIVERS, startServer, type TestServer } from "./harness";

interface ErrorAnswer {
  message: string;
  details?: Array<{ field: string; message: string }>;
}

const path = (key: string) => `/api/me/preferences/${encodeURIComponent(key)}`;

describe.each(DRIVERS)("preferences on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let una: string;

  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
    const created = await s.api("POST", "/api/users", {
      token: admin,
      body: {
        first_name: "Una",
        last_name: "Prefs",
        email: "una.prefs@example.com",
        password: "Una-passw0rd-9",
        role: 3,
        modules: [1],
      },
    });
    expect(created.status).toBe(201);
    una = (await s.signIn("una.prefs@example.com", "Una-passw0rd-9")).accessToken;
  });
  afterAll(() => s?.close());

  const put = (key: string, value: unknown, token = admin) =>
    s.api<PreferenceRecord & ErrorAnswer>("PUT", path(key), { token, body: { value } });
  const get = (key: string, token = admin) =>
    s.api<PreferenceRecord & ErrorAnswer>("GET", path(key), { token });

  it("answers a key never set with a null value, not an error", async () => {
    const res = await get("list-columns:products");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ key: "list-columns:products", value: null });
  });

  it("stores any JSON value and gives it back with its time", async () => {
    const value = { hidden: ["status", "currency"], order: ["name", "sku_code"] };
    const saved = await put("list-columns:products", value);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ key: "list-columns:products", value });
    expect(Date.parse(saved.body.updated_at ?? "")).not.toBeNaN();
    expect((await get("list-columns:products")).body.value).toEqual(value);
    for (const scalar of [true, false, 0, "compact", [1, "two"]]) {
      expect((await put("ui.menuClose", scalar)).status).toBe(200);
      expect((await get("ui.menuClose")).body.value).toEqual(scalar);
    }
  });

  it("replaces the last value, and DELETE forgets it", async () => {
    await put("list-columns:categories", { hidden: ["description"] });
    await put("list-columns:categories", { hidden: [] });
    expect((await get("list-columns:categories")).body.value).toEqual({ hidden: [] });
    const removed = await s.api("DELETE", path("list-columns:categories"), { token: admin });
    expect(removed.status).toBe(204);
    expect((await get("list-columns:categories")).body.value).toBeNull();
    // Forgetting what was never set is not an error either.
    expect((await s.api("DELETE", path("never-set"), { token: admin })).status).toBe(204);
  });

  it("keeps each user's rows to that user", async () => {
    await put("list-columns:products", { hidden: ["price"] }, una);
    expect((await get("list-columns:products", una)).body.value).toEqual({ hidden: ["price"] });
    // The admin's value of the same key is untouched, and neither sees the other's.
    expect((await get("list-columns:products")).body.value).toMatchObject({ hidden: ["status", "currency"] });
    await s.api("DELETE", path("list-columns:products"), { token: una });
    expect((await get("list-columns:products")).body.value).toMatchObject({ hidden: ["status", "currency"] });
    expect((await get("list-columns:products", una)).body.value).toBeNull();
  });

  it("survives signing out, and follows the user to another device", async () => {
    await put("ui.menuClose", true, una);
    const logout = await s.api("POST", "/clients/logout", {
      token: una,
      body: { deviceInfo: { deviceId: "device-1", deviceName: "Linux Chrome" } },
    });
    expect(logout.status).toBe(204);
    const phone = await s.signIn("una.prefs@example.com", "Una-passw0rd-9", {
      deviceId: "phone-1",
      deviceName: "Android Chrome",
    });
    expect((await get("ui.menuClose", phone.accessToken)).body.value).toBe(true);
    una = phone.accessToken;
  });

  it("refuses a bad key with the rule in words, never a regex", async () => {
    for (const key of ["-starts-with-dash", "has space", "slash/inside", "é", ".hidden"]) {
      for (const res of [await get(key), await put(key, 1)]) {
        expect(res.status, key).toBe(400);
        expect(res.body.details).toEqual([{ field: "key", message: PREFERENCE_KEY_RULE }]);
        expect(JSON.stringify(res.body)).not.toMatch(/\^|\[A-Za-z|pattern/);
      }
    }
    // 100 characters is the longest key; a longer one is refused by the router as too long.
    expect((await put("x".repeat(100), 1)).status).toBe(200);
    expect((await put("x".repeat(101), 1)).status).toBe(414);
  });

  it("refuses a bad body with per-field messages", async () => {
    const missing = await s.api<ErrorAnswer>("PUT", path("ui.menuClose"), { token: admin, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([
      { field: "value", message: expect.stringMatching(/^Value is required/) },
    ]);

    const extra = await s.api<ErrorAnswer>("PUT", path("ui.menuClose"), {
      token: admin,
      body: { value: true, also: 1 },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.details).toEqual([{ field: "also", message: expect.stringMatching(/^[A-Z].* not /) }]);

    const nullValue = await put("ui.menuClose", null);
    expect(nullValue.status).toBe(400);
    expect(nullValue.body.details?.[0]).toMatchObject({ field: "value" });
    expect(nullValue.body.details?.[0].message).toMatch(/^Value is required/);

    const notJson = await s.api<ErrorAnswer>("PUT", path("ui.menuClose"), {
      token: admin,
      body: undefined,
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBeGreaterThanOrEqual(400);
    expect(notJson.status).toBeLessThan(500);
  });

  it("refuses a value over the size limit, and keeps the last one", async () => {
    await put("big", { ok: true });
    // Just fits: the JSON text of a string is its characters plus two quotes.
    const fits = await put("big", "a".repeat(PREFERENCE_VALUE_MAX_BYTES - 2));
    expect(fits.status).toBe(200);
    const over = await put("big", "a".repeat(PREFERENCE_VALUE_MAX_BYTES - 1));
    expect(over.status).toBe(400);
    expect(over.body.details?.[0].field).toBe("value");
    expect(over.body.details?.[0].message).toMatch(/^Value must be at most 16 KB as JSON/);
    // Counted in UTF-8 bytes, not characters: 6,000 "é" are 12,000 bytes.
    expect((await put("big", "é".repeat(9000))).status).toBe(400);
    expect((await get("big")).body.value).toHaveLength(PREFERENCE_VALUE_MAX_BYTES - 2);
    // Far over: refused before parsing.
    const huge = await put("big", "a".repeat(PREFERENCE_VALUE_MAX_BYTES * 5));
    expect(huge.status).toBe(413);
  });

  it("caps the number of keys one user keeps", async () => {
    const { count } = await s.database.db
      .selectFrom("user_preferences")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where(
        "user_id",
        "=",
        (await s.api<{ userID: string }>("GET", "/api/users/me", { token: una })).body.userID,
      )
      .executeTakeFirstOrThrow();
    for (let i = Number(count); i < PREFERENCES_PER_USER_MAX; i++) {
      expect((await put(`k${i}`, i, una)).status).toBe(200);
    }
    const over = await put("one-too-many", 1, una);
    expect(over.status).toBe(409);
    expect(over.body.message).toMatch(/delete one first/);
    // An existing key can still be changed.
    expect((await put("k150", "changed", una)).status).toBe(200);
  });

  it("answers 401 without a token on every route", async () => {
    expect((await s.api("GET", path("ui.menuClose"))).status).toBe(401);
    expect((await s.api("PUT", path("ui.menuClose"), { body: { value: true } })).status).toBe(401);
    expect((await s.api("DELETE", path("ui.menuClose"))).status).toBe(401);
  });
});
