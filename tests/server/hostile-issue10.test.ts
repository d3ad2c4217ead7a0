import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, DRIVERS, type SignedIn, startServer, type TestServer } from "./harness";

const CHUNK = 64 * 1024;
function fakePdf(size: number): Buffer {
  const file = Buffer.alloc(size, 0x20);
  file.write("%PDF-1.4\n", 0, "latin1");
  return file;
}

describe.each(DRIVERS)("probe on %s", (driver) => {
  let s: TestServer;
  let admin: SignedIn;
  beforeAll(async () => {
    s = await startServer(driver, { AUTH_MAX_ATTEMPTS: "5" });
    admin = await s.signIn();
  });
  afterAll(() => s?.close());
  let seq = 0;
  async function newUser(password = "Old-passw0rd", modules = [1]) {
    const email = `h-${++seq}-${driver}@example.com`;
    const res = await s.api<{ id: string }>("POST", "/api/users", {
      token: admin.accessToken,
      body: { first_name: "Pat", last_name: "Word", email, password, role: 3, modules },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.id, email };
  }
  const outbox = async () =>
    (await s.api<{ data: Array<{ to: string; text: string }> }>("GET", "/api/outbox?pageSize=200", { token: admin.accessToken })).body.data;

  it("revoked session change password", async () => {
    const u = await newUser();
    const t = await s.signIn(u.email, "Old-passw0rd");
    await s.api("POST", "/clients/logout", { token: t.accessToken, body: {} });
    const r = await s.api("POST", "/api/users/me/password", {
      token: t.accessToken,
      body: { currentPassword: "Old-passw0rd", newPassword: "New-passw0rd-x" },
    });
    console.log("revoked change", r.status, r.body);
  });

  it("invite then email change: old link", async () => {
    const email = `typo-${driver}@example.com`;
    const res = await s.api<{ id: string }>("POST", "/api/users", {
      token: admin.accessToken,
      body: { first_name: "In", last_name: "Vite", email, role: 3, modules: [1], invite: true },
    });
    expect(res.status).toBe(201);
    const mail = (await outbox()).find((m) => m.to === email);
    const link = /resetpassword\/(\S+)/.exec(mail?.text ?? "")?.[1];
    const p = await s.api("PATCH", `/api/users/${res.body.id}`, {
      token: admin.accessToken,
      body: { email: `right-${driver}@example.com` },
    });
    console.log("patch", p.status, p.body.email, p.body.invite_pending);
    const info = await s.api("POST", "/api/auth/reset-password/info", { body: { id: link } });
    const reset = await s.api("POST", "/api/auth/reset-password", { body: { id: link, password: "Taken-0ver-pass" } });
    console.log("old link after email change", info.status, reset.status, reset.body);
    const si = await s.api("POST", "/api/auth/signin", {
      body: { email: `right-${driver}@example.com`, password: "Taken-0ver-pass", deviceInfo: { deviceId: "z", deviceName: "z" } },
    });
    console.log("signin as right", si.status);
  });

  it.only("double complete of an upload", async () => {
    const u = await newUser();
    const t = await s.signIn(u.email, "Old-passw0rd");
    const size = CHUNK * 40 + 10;
    const st = await s.api<{ id: string }>("POST", "/api/pdfs/uploads", {
      token: t.accessToken,
      body: { fileName: "x.pdf", size, chunkSize: CHUNK },
    });
    const file = fakePdf(size);
    for (let i = 0; i < 41; i++) {
      const r = await fetch(`${s.baseUrl}/api/pdfs/uploads/${st.body.id}/chunks/${i}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${t.accessToken}`, "content-type": "application/octet-stream" },
        body: new Uint8Array(file.subarray(i * CHUNK, Math.min(size, (i + 1) * CHUNK))),
      });
      expect(r.status).toBe(200);
    }
    const rs = await Promise.all(
      [0, 1, 2].map(() => s.api("POST", `/api/pdfs/uploads/${st.body.id}/complete`, { token: t.accessToken })),
    );
    console.log("double complete", rs.map((r) => [r.status, r.body.message ?? r.body.id]));
  });

  it("security events list abuse", async () => {
    const u = await newUser("Old-passw0rd", [10]);
    const t = await s.signIn(u.email, "Old-passw0rd");
    const checks = [
      ["user", `/api/security-events`, t.accessToken],
      ["huge", `/api/security-events?pageSize=1000000`, admin.accessToken],
      ["badfield", `/api/security-events?filters=${encodeURIComponent(JSON.stringify([{ field: "details", operator: "eq", value: "x" }]))}`, admin.accessToken],
      ["badop", `/api/security-events?filters=${encodeURIComponent(JSON.stringify([{ field: "ip", operator: "in", value: [{}] }]))}`, admin.accessToken],
      ["userid contains", `/api/security-events?filters=${encodeURIComponent(JSON.stringify([{ field: "user_id", operator: "contains", value: "abc" }]))}`, admin.accessToken],
      ["date contains", `/api/security-events?filters=${encodeURIComponent(JSON.stringify([{ field: "created_at", operator: "contains", value: "2024" }]))}`, admin.accessToken],
      ["type in obj", `/api/security-events?filters=${encodeURIComponent(JSON.stringify([{ field: "type", operator: "eq", value: { a: 1 } }]))}`, admin.accessToken],
      ["sort", `/api/security-events?sort=details`, admin.accessToken],
      ["q", `/api/security-events?q=%25_%5C`, admin.accessToken],
      ["between dates", `/api/security-events?filters=${encodeURIComponent(JSON.stringify([{ field: "created_at", operator: "between", value: ["0001-01-01", "9999-12-31T23:59:59.999Z"] }]))}`, admin.accessToken],
      ["uuid between", `/api/security-events?filters=${encodeURIComponent(JSON.stringify([{ field: "user_id", operator: "gt", value: "00000000-0000-0000-0000-000000000000" }]))}`, admin.accessToken],
      ["field proto", `/api/security-events?filters=${encodeURIComponent(JSON.stringify([{ field: "__proto__", operator: "eq", value: "1" }]))}`, admin.accessToken],
      ["field toString", `/api/security-events?filters=${encodeURIComponent(JSON.stringify([{ field: "toString", operator: "eq", value: "1" }]))}`, admin.accessToken],
      ["op toString", `/api/security-events?filters=${encodeURIComponent(JSON.stringify([{ field: "ip", operator: "constructor", value: "1" }]))}`, admin.accessToken],
      ["date big", `/api/security-events?filters=${encodeURIComponent(JSON.stringify([{ field: "created_at", operator: "eq", value: 8.64e15 }]))}`, admin.accessToken],
      ["date early", `/api/security-events?filters=${encodeURIComponent(JSON.stringify([{ field: "created_at", operator: "in", value: ["0001-01-01T00:00:00+14:00"] }]))}`, admin.accessToken],
      ["ip number", `/api/security-events?filters=${encodeURIComponent(JSON.stringify([{ field: "ip", operator: "eq", value: 1e400 }]))}`, admin.accessToken],
      ["outbox user", `/api/outbox`, t.accessToken],
    ] as const;
    for (const [name, url, token] of checks) {
      const r = await s.api("GET", url, { token });
      console.log("sec", name, r.status, r.status >= 400 ? r.body.message : `${(r.body.data as unknown[])?.length}`);
    }
  });

  it("change password sign out others keeps this", async () => {
    const u = await newUser();
    const a = await s.signIn(u.email, "Old-passw0rd", { deviceId: "a", deviceName: "A" });
    const b = await s.signIn(u.email, "Old-passw0rd", { deviceId: "b", deviceName: "B" });
    const r = await s.api("POST", "/api/users/me/password", {
      token: a.accessToken,
      body: { currentPassword: "Old-passw0rd", newPassword: "New-passw0rd-x", signOutOtherDevices: true },
    });
    const meA = await s.api("GET", "/api/users/me", { token: a.accessToken });
    const meB = await s.api("GET", "/api/users/me", { token: b.accessToken });
    const refA = await s.api("POST", "/api/auth/refreshtokenapp", { body: { refreshToken: a.refreshToken } });
    const refB = await s.api("POST", "/api/auth/refreshtokenapp", { body: { refreshToken: b.refreshToken } });
    console.log("signout others", r.status, r.body, meA.status, meB.status, refA.status, refB.status);
  });

  it("idempotency probes", async () => {
    const u = await newUser("Old-passw0rd", [10]);
    const t = await s.signIn(u.email, "Old-passw0rd");
    const body = { first_name: "I", last_name: "D", email: `idem-${driver}@example.com`, password: "Sturdy-passw0rd!", role: 3, modules: [] };
    const r1 = await s.api("POST", "/api/users", { token: admin.accessToken, body, headers: { "idempotency-key": "k1" } });
    const r2 = await s.api("POST", "/api/users", { token: t.accessToken, body, headers: { "idempotency-key": "k1" } });
    console.log("idem other user", r1.status, r2.status, r2.body.message, r2.headers.get("idempotent-replayed"));
    const r3 = await s.api("GET", "/api/users/me", { token: t.accessToken, headers: { "idempotency-key": "x".repeat(5000) } });
    console.log("idem non-create huge", r3.status);
    const r4 = await s.api("POST", "/api/users", { token: admin.accessToken, body, headers: { "idempotency-key": "é" } });
    console.log("idem non-ascii", r4.status, r4.body.message);
    // Lost access: demote admin? use second admin
    const adm2email = `adm2-${driver}@example.com`;
    const a2 = await s.api<{ id: string }>("POST", "/api/users", { token: admin.accessToken, body: { first_name: "A", last_name: "B", email: adm2email, password: "Sturdy-passw0rd!", role: 2, modules: [10] } });
    const a2t = await s.signIn(adm2email, "Sturdy-passw0rd!");
    const body2 = { ...body, email: `idem2-${driver}@example.com` };
    const c1 = await s.api("POST", "/api/users", { token: a2t.accessToken, body: body2, headers: { "idempotency-key": "k2" } });
    await s.api("PATCH", `/api/users/${a2.body.id}`, { token: admin.accessToken, body: { role: 3 } });
    const c2 = await s.api("POST", "/api/users", { token: a2t.accessToken, body: body2, headers: { "idempotency-key": "k2" } });
    console.log("lost access replay", c1.status, c2.status, c2.body.message);
    // 'Idempotency-Key' twice
    const res = await fetch(`${s.baseUrl}/api/users`, { method: "POST", headers: [["authorization", `Bearer ${admin.accessToken}`], ["content-type", "application/json"], ["idempotency-key", "a"], ["idempotency-key", "b"]], body: JSON.stringify({ ...body, email: `idem3-${driver}@example.com` }) });
    console.log("dup header", res.status, await res.text());
  });
});
