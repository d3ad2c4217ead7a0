/**
 * Account changes reach the signed-in user live (issue 13): an admin's grant or role change
 * sends `account { type: "access-changed" }` to the user's sockets, which stop receiving the
 * revoked module's changes at once; disabling, deleting or signing a device out sends
 * `session-ended` with the reason and disconnects those sockets. The refresh token of such a
 * session then says why (406), so a page that missed the event still learns it.
 */
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLiveClient } from "../../providers/live-client";
import type { LogoutReason } from "../../providers/session-end";
import { MODULE_IDS } from "../../resources/modules";
import { ACCOUNT_DISABLED_MESSAGE, DEVICE_SIGNED_OUT_MESSAGE } from "../../schemas/auth";
import type { AccountMessage, ResourceChangeMessage, SubscribeAck } from "../../schemas/realtime";
import { SOCKET_PATH } from "../../schemas/realtime";
import { DRIVERS, type SignedIn, sleep, startInstances, startServer, type TestServer } from "./harness";
import { Received } from "./received";
import { testSocket } from "./sockets";

const EVENT_MS = 20_000;

interface Watched {
  socket: Socket;
  account: Received<AccountMessage>;
  changes: Received<ResourceChangeMessage>;
  /** Resolves with the reason socket.io gives when the socket is disconnected. */
  disconnected: Promise<string>;
}

const sockets: Socket[] = [];

async function watch(server: TestServer, token: string): Promise<Watched> {
  const socket = testSocket(server.baseUrl, token);
  sockets.push(socket);
  const account = new Received<AccountMessage>(socket, "account", EVENT_MS);
  const changes = new Received<ResourceChangeMessage>(socket, "change", EVENT_MS);
  const disconnected = new Promise<string>((resolve) => socket.once("disconnect", resolve));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", reject);
  });
  return { socket, account, changes, disconnected };
}

const subscribe = (socket: Socket, resource: string) =>
  socket.timeout(EVENT_MS).emitWithAck("subscribe", resource) as Promise<SubscribeAck>;

let serial = 0;

/** A user with these modules, signed in on a device of their own. */
async function createUser(s: TestServer, admin: string, modules: number[], role = 3) {
  const email = `live-account-${++serial}-${Date.now()}@example.com`;
  const res = await s.api("POST", "/api/users", {
    token: admin,
    body: { first_name: "Lia", last_name: "Live", email, password: "Live-passw0rd", role, modules },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const signIn = (deviceId: string) =>
    s.signIn(email, "Live-passw0rd", { deviceId, deviceName: "Linux Chrome" });
  return { id: res.body.id as string, email, signIn, session: await signIn(`${email}-laptop`) };
}

const refresh = (s: TestServer, session: SignedIn) =>
  s.api("POST", "/api/auth/refreshtokenapp", { body: { refreshToken: session.refreshToken } });

describe.each(DRIVERS)("account changes on the socket on %s", (driver) => {
  let s: TestServer;
  let admin: string;

  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
  });
  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    await s?.close();
  });

  it("a revoked module stops at once: 'access-changed', no more of its changes, its subscribe refused", async () => {
    const user = await createUser(s, admin, [MODULE_IDS.products]);
    const live = await watch(s, user.session.accessToken);
    expect(await subscribe(live.socket, "categories")).toEqual({ ok: true });

    const patched = await s.api("PATCH", `/api/users/${user.id}`, {
      token: admin,
      body: { modules: [MODULE_IDS.pdf] },
    });
    expect(patched.status).toBe(200);
    await live.account.until((m) => m.type === "access-changed", "access-changed");

    // The socket left the products rooms: a category created now does not reach it.
    const category = await s.api("POST", "/api/categories", { token: admin, body: { name: "After revoke" } });
    expect(category.status).toBe(201);
    const watcher = await watch(s, admin);
    expect(await subscribe(watcher.socket, "categories")).toEqual({ ok: true });
    const second = await s.api("POST", "/api/categories", { token: admin, body: { name: "Seen by admin" } });
    await watcher.changes.until((c) => c.ids.includes(second.body.id as string), "admin's change");
    expect(live.changes.seen).toEqual([]);

    // Grants are read again at subscribe: the old module is refused, the new one allowed.
    expect(await subscribe(live.socket, "categories")).toMatchObject({ ok: false });
    expect(await subscribe(live.socket, "pdfs")).toEqual({ ok: true });
    expect(live.socket.connected).toBe(true);
  });

  it("a role change is an access change too; a name change is not", async () => {
    const user = await createUser(s, admin, [MODULE_IDS.products]);
    const live = await watch(s, user.session.accessToken);
    await s.api("PATCH", `/api/users/${user.id}`, { token: admin, body: { first_name: "Renamed" } });
    await s.api("PATCH", `/api/users/${user.id}`, {
      token: admin,
      body: { role: 2, modules: [MODULE_IDS.products] },
    });
    await live.account.until((m) => m.type === "access-changed", "access-changed");
    expect(live.account.seen).toEqual([{ type: "access-changed" }]);
  });

  it("disabling a user ends their sockets with 'disabled', and their refresh answers 406 with the reason", async () => {
    const user = await createUser(s, admin, [MODULE_IDS.products]);
    const phone = await user.signIn(`${user.email}-phone`);
    const live = [await watch(s, user.session.accessToken), await watch(s, phone.accessToken)];

    expect(
      (await s.api("PATCH", `/api/users/${user.id}`, { token: admin, body: { active: false } })).status,
    ).toBe(200);
    for (const socket of live) {
      expect(await socket.account.until((m) => m.type === "session-ended", "session-ended")).toEqual({
        type: "session-ended",
        reason: "disabled",
      });
      expect(await socket.disconnected).toBe("io server disconnect");
    }
    const answer = await refresh(s, user.session);
    expect(answer.status).toBe(406);
    expect(answer.body.message).toBe(ACCOUNT_DISABLED_MESSAGE);
  });

  it("a device signed out by an admin: only that device hears 'device-signed-out'; its tokens answer 406", async () => {
    const user = await createUser(s, admin, [MODULE_IDS.products]);
    const phone = await user.signIn(`${user.email}-phone`);
    const laptopLive = await watch(s, user.session.accessToken);
    const phoneLive = await watch(s, phone.accessToken);

    const revoked = await s.api("DELETE", `/api/users/${user.id}/devices/${user.email}-phone`, {
      token: admin,
    });
    expect(revoked.status).toBe(204);
    expect(await phoneLive.account.until((m) => m.type === "session-ended", "session-ended")).toEqual({
      type: "session-ended",
      reason: "device-signed-out",
    });
    expect(await phoneLive.disconnected).toBe("io server disconnect");

    const me = await s.api("GET", "/api/users/me", { token: phone.accessToken });
    expect([me.status, me.body.message]).toEqual([406, DEVICE_SIGNED_OUT_MESSAGE]);
    const answer = await refresh(s, phone);
    expect([answer.status, answer.body.message]).toEqual([406, DEVICE_SIGNED_OUT_MESSAGE]);

    // The laptop is untouched.
    await sleep(300);
    expect(laptopLive.account.seen).toEqual([]);
    expect(laptopLive.socket.connected).toBe(true);
    expect((await refresh(s, user.session)).status).toBe(200);
  });

  it("signing out one's own current device from My devices tells no socket of it (the page ends it)", async () => {
    const user = await createUser(s, admin, [MODULE_IDS.products]);
    const live = await watch(s, user.session.accessToken);
    const res = await s.api("DELETE", `/api/users/me/devices/${user.email}-laptop`, {
      token: user.session.accessToken,
    });
    expect(res.status).toBe(204);
    await sleep(300);
    expect(live.account.seen).toEqual([]);
  });

  it("the app's live client: reloads access on 'access-changed', signs out with the reason on 'session-ended'", async () => {
    const user = await createUser(s, admin, [MODULE_IDS.products]);
    const logouts: LogoutReason[] = [];
    const client = createLiveClient({
      createSocket: (auth) => {
        const socket = io(s.baseUrl, { path: SOCKET_PATH, auth, autoConnect: false, forceNew: true });
        sockets.push(socket);
        return socket;
      },
      getAccessToken: () => user.session.accessToken,
      refresh: async () => user.session.accessToken,
      onLogout: (reason) => logouts.push(reason),
    });
    const accessChanged = vi.fn();
    // No live list is open: watching the account opens the socket by itself.
    client.watchAccount(accessChanged);
    await vi.waitFor(() => expect(client.socket?.connected).toBe(true), { timeout: EVENT_MS });

    await s.api("PATCH", `/api/users/${user.id}`, { token: admin, body: { modules: [MODULE_IDS.pdf] } });
    await vi.waitFor(() => expect(accessChanged).toHaveBeenCalledTimes(1), { timeout: EVENT_MS });
    expect(logouts).toEqual([]);

    await s.api("PATCH", `/api/users/${user.id}`, { token: admin, body: { active: false } });
    await vi.waitFor(() => expect(logouts).toEqual(["disabled"]), { timeout: EVENT_MS });
    expect(client.socket).toBeNull();
    expect(accessChanged).toHaveBeenCalledTimes(1);
  });

  it("deleting a user ends their sockets with 'deleted'", async () => {
    const user = await createUser(s, admin, []);
    const live = await watch(s, user.session.accessToken);
    expect((await s.api("DELETE", `/api/users/${user.id}`, { token: admin })).status).toBe(204);
    expect(await live.account.until((m) => m.type === "session-ended", "session-ended")).toEqual({
      type: "session-ended",
      reason: "deleted",
    });
  });
});

describe.runIf(DRIVERS.includes("postgres"))("account changes across two instances", () => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    [a, b] = await startInstances(2);
  });
  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    await b?.close();
    await a?.close();
  });

  it("a grant change and a disable made on A reach the user's socket on B", async () => {
    const admin = (await a.signIn()).accessToken;
    const user = await createUser(a, admin, [MODULE_IDS.products]);
    const live = await watch(b, user.session.accessToken);
    expect(await subscribe(live.socket, "categories")).toEqual({ ok: true });

    await a.api("PATCH", `/api/users/${user.id}`, { token: admin, body: { modules: [MODULE_IDS.pdf] } });
    await live.account.until((m) => m.type === "access-changed", "access-changed on B");
    expect(await subscribe(live.socket, "categories")).toMatchObject({ ok: false });

    await a.api("PATCH", `/api/users/${user.id}`, { token: admin, body: { active: false } });
    await live.account.until((m) => m.type === "session-ended", "session-ended on B");
    expect(await live.disconnected).toBe("io server disconnect");
  });
});
