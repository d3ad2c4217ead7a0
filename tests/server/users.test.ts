import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, startServer, type TestServer } from "./harness";

describe.each(DRIVERS)("users and modules on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  const newUser = {
    first_name: "Una",
    last_name: "User",
    email: "una@example.com",
    password: "Una-passw0rd",
    role: 3,
    plan_type: "basic",
    modules: [1, 6],
  };
  let unaId: string;

  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  it("lists the module catalogue", async () => {
    const res = await s.api<{ data: Array<{ moduleID: number; name: string }>; total: number }>(
      "GET",
      "/api/modules",
      { token: admin },
    );
    expect(res.body.total).toBe(10);
    expect(res.body.data.map((m) => m.name)).toEqual([
      "PDF library",
      "Products",
      "Online store",
      "CMS",
      "CRM",
      "Forms",
      "Automation",
      "Digital assets",
      "Analytics",
      "Users",
    ]);
  });

  it("creates a user with role user (3) granted some modules", async () => {
    const res = await s.api("POST", "/api/users", { token: admin, body: newUser });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      email: "una@example.com",
      role: 3,
      type_user: "ROLE_USER",
      isadmin: false,
      modules: [1, 6],
      active: true,
    });
    expect(res.body).not.toHaveProperty("password_hash");
    unaId = res.body.id as string;
    const row = await s.database.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", unaId)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it("gives that user only the granted modules and 403 elsewhere", async () => {
    const una = await s.signIn("una@example.com", "Una-passw0rd");
    const me = await s.api("GET", "/api/users/me", { token: una.accessToken });
    expect(me.body).toMatchObject({ type_user: "ROLE_USER", isadmin: false, first_name: "Una" });
    const mods = (me.body.modules_submodules as Array<{ modules: Array<{ moduleID: number }> }>)[0].modules;
    expect(mods.map((m) => m.moduleID)).toEqual([1, 6]);
    const forbidden = await s.api("GET", "/api/users", { token: una.accessToken });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.message).toBe("You do not have access to this module");
  });

  it("an admin without the Users module, or a user with it but not admin, is refused", async () => {
    const res = await s.api("POST", "/api/users", {
      token: admin,
      body: { ...newUser, email: "uma@example.com", role: 3, modules: [10] },
    });
    expect(res.status).toBe(201);
    const uma = await s.signIn("uma@example.com", newUser.password);
    const list = await s.api("GET", "/api/users", { token: uma.accessToken });
    expect(list.status).toBe(403);
    expect(list.body.message).toBe("Administrators only");
  });

  it("validates bodies with per-field messages and rejects unknown or read-only fields", async () => {
    const res = await s.api("POST", "/api/users", {
      token: admin,
      body: {
        first_name: "",
        email: "not-an-email",
        password: "short",
        role: 1,
        modules: [99],
        created_by: "x",
      },
    });
    expect(res.status).toBe(400);
    const byField = Object.fromEntries(
      (res.body.details as Array<{ field: string; message: string }>).map((d) => [d.field, d.message]),
    );
    expect(byField).toMatchObject({
      first_name: "First name must not be empty",
      last_name: "Last name is required",
      email: "Email must be a valid email address",
      password: "Password must be at least 8 characters",
      role: "Role must be one of Admin (2), User (3)",
      created_by: "Created by is not a field that can be set here",
    });
    expect(byField["modules.0"]).toMatch(/must be one of/);
    const count = await s.database.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(3);
  });

  it("answers 409 for a duplicate email, whatever its case", async () => {
    const res = await s.api("POST", "/api/users", {
      token: admin,
      body: { ...newUser, email: "UNA@example.com" },
    });
    expect(res.status).toBe(409);
    expect(res.body.details).toEqual([{ field: "email", message: "Email is already in use" }]);
  });

  it("lists with search, sort, filters and paging", async () => {
    const search = await s.api<{ data: Array<{ email: string }>; total: number }>(
      "GET",
      "/api/users?q=una%40",
      { token: admin },
    );
    expect(search.body.data.map((u) => u.email)).toEqual(["una@example.com"]);
    const sorted = await s.api<{ data: Array<{ email: string }>; total: number }>(
      "GET",
      "/api/users?sort=email&pageSize=2&page=2",
      { token: admin },
    );
    expect(sorted.body.total).toBe(3);
    expect(sorted.body.data.map((u) => u.email)).toEqual(["una@example.com"]);
    const filters = encodeURIComponent(JSON.stringify([{ field: "role", operator: "eq", value: 2 }]));
    const admins = await s.api<{ data: Array<{ email: string }>; total: number }>(
      "GET",
      `/api/users?filters=${filters}`,
      { token: admin },
    );
    expect(admins.body.data.map((u) => u.email)).toEqual(["admin@example.com"]);
    const past = await s.api<{ data: unknown[]; total: number }>("GET", "/api/users?page=9", {
      token: admin,
    });
    expect(past.body).toEqual({ data: [], total: 3 });
    expect((await s.api("GET", "/api/users?sort=password_hash", { token: admin })).status).toBe(400);
    const bad = encodeURIComponent(JSON.stringify([{ field: "password_hash", operator: "eq", value: "x" }]));
    expect((await s.api("GET", `/api/users?filters=${bad}`, { token: admin })).status).toBe(400);
    const injection = encodeURIComponent(
      JSON.stringify([{ field: "email", operator: "contains", value: "' or 1=1 --" }]),
    );
    const inj = await s.api<{ total: number }>("GET", `/api/users?filters=${injection}`, { token: admin });
    expect(inj.body.total).toBe(0);
  });

  it("updates grants, and disabling a user answers 406 to their tokens", async () => {
    const una = await s.signIn("una@example.com", "Una-passw0rd");
    const patched = await s.api("PATCH", `/api/users/${unaId}`, {
      token: admin,
      body: { modules: [2], plan_type: "pro" },
    });
    expect(patched.body).toMatchObject({ modules: [2], plan_type: "pro" });
    const me = await s.api("GET", "/api/users/me", { token: una.accessToken });
    expect(
      (me.body.modules_submodules as Array<{ modules: Array<{ moduleID: number }> }>)[0].modules.map(
        (m) => m.moduleID,
      ),
    ).toEqual([2]);

    await s.api("PATCH", `/api/users/${unaId}`, { token: admin, body: { active: false } });
    expect((await s.api("GET", "/api/users/me", { token: una.accessToken })).status).toBe(406);
    const again = await s.api("POST", "/api/auth/signin", {
      body: {
        email: "una@example.com",
        password: "Una-passw0rd",
        deviceInfo: { deviceId: "z", deviceName: "z" },
      },
    });
    expect(again.status).toBe(406);
  });

  it("keeps an admin from locking themselves out", async () => {
    const me = await s.api("GET", "/api/users/me", { token: admin });
    const res = await s.api("PATCH", `/api/users/${me.body.userID}`, {
      token: admin,
      body: { role: 3, active: false },
    });
    expect(res.status).toBe(400);
    expect((await s.api("DELETE", `/api/users/${me.body.userID}`, { token: admin })).status).toBe(400);
  });

  it("lets an admin see and sign out a user's device, and a user their own", async () => {
    await s.api("PATCH", `/api/users/${unaId}`, { token: admin, body: { active: true } });
    const una = await s.signIn("una@example.com", "Una-passw0rd", {
      deviceId: "una-phone",
      deviceName: "Android Chrome",
    });
    const devices = await s.api<{ data: Array<{ deviceId: string; signedIn: boolean }> }>(
      "GET",
      `/api/users/${unaId}/devices`,
      { token: admin },
    );
    expect(devices.body.data.find((d) => d.deviceId === "una-phone")).toMatchObject({ signedIn: true });
    expect((await s.api("DELETE", `/api/users/${unaId}/devices/una-phone`, { token: admin })).status).toBe(
      204,
    );
    expect((await s.api("GET", "/api/users/me", { token: una.accessToken })).status).toBe(406);

    const una2 = await s.signIn("una@example.com", "Una-passw0rd", {
      deviceId: "una-laptop",
      deviceName: "Linux Firefox",
    });
    expect(
      (await s.api("DELETE", "/api/users/me/devices/una-laptop", { token: una2.accessToken })).status,
    ).toBe(204);
    expect((await s.api("GET", "/api/users/me", { token: una2.accessToken })).status).toBe(406);
    expect((await s.api("DELETE", "/api/users/me/devices/nope", { token: admin })).status).toBe(404);
  });

  it("deleting a user makes their tokens answer 401", async () => {
    const una = await s.signIn("una@example.com", "Una-passw0rd", { deviceId: "d-del", deviceName: "x" });
    expect((await s.api("DELETE", `/api/users/${unaId}`, { token: admin })).status).toBe(204);
    expect((await s.api("GET", "/api/users/me", { token: una.accessToken })).status).toBe(401);
    expect((await s.api("GET", `/api/users/${unaId}`, { token: admin })).status).toBe(404);
  });
});
