/**
 * The realtime socket against the real app: handshake status rules, module checks on
 * `subscribe` and on `/dam`, and `change` events after real writes.
 */

import type { LiveEvent } from "@refinedev/core";
import { createSigner } from "fast-jwt";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLiveClient, type LiveClient } from "../../providers/live-client";
import type { ResourceChangeMessage, SubscribeAck } from "../../schemas/realtime";
import type { ResourceChange } from "../../server/realtime/events";
import { DRIVERS, type SignedIn, sleep, startServer, type TestServer } from "./harness";
import { type TestSocketOptions, testSocket } from "./sockets";

interface HandshakeFailure {
  message: string;
  data?: { statusCode?: number };
}

describe.each(DRIVERS)("realtime socket on %s", (driver) => {
  let s: TestServer;
  let closed = false;
  let admin: string;
  const sockets: Socket[] = [];

  const open = (token: string | undefined, options: TestSocketOptions = {}) => {
    const socket = testSocket(s.baseUrl, token, options);
    sockets.push(socket);
    return socket;
  };

  /** Resolves when connected, or with the handshake failure. */
  const outcome = (socket: Socket) =>
    new Promise<"connected" | HandshakeFailure>((resolve) => {
      socket.once("connect", () => resolve("connected"));
      socket.once("connect_error", (err: Error & { data?: HandshakeFailure["data"] }) =>
        resolve({ message: err.message, data: err.data }),
      );
    });

  const connect = async (token: string, namespace?: string) => {
    const socket = open(token, { namespace });
    expect(await outcome(socket)).toBe("connected");
    return socket;
  };

  const subscribe = (socket: Socket, resource: unknown) =>
    socket.timeout(5000).emitWithAck("subscribe", resource) as Promise<SubscribeAck>;

  const nextChange = (socket: Socket) =>
    new Promise<ResourceChangeMessage>((resolve) => socket.once("change", resolve));

  const createUser = async (email: string, modules: number[]) => {
    const res = await s.api("POST", "/api/users", {
      token: admin,
      body: {
        first_name: "Live",
        last_name: "User",
        email,
        password: "Live-passw0rd",
        role: 3,
        plan_type: "basic",
        modules,
      },
    });
    expect(res.status).toBe(201);
    const signedIn = await s.signIn(email, "Live-passw0rd", {
      deviceId: `dev-${email}`,
      deviceName: "Linux Chrome",
    });
    return { id: res.body.id as string, token: signedIn.accessToken };
  };

  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    if (!closed) await s?.close();
  });

  it("refuses a connection without a token, or with a forged one, with 401", async () => {
    expect(await outcome(open(undefined))).toMatchObject({ data: { statusCode: 401 } });
    expect(await outcome(open("garbage", { websocketOnly: true }))).toMatchObject({
      message: "Invalid token",
      data: { statusCode: 401 },
    });
  });

  it("answers 417 to a genuine but expired token, and accepts a fresh one", async () => {
    const { value: secret } = await s.ctx.db
      .selectFrom("app_settings")
      .select("value")
      .where("key", "=", "jwt_secret")
      .executeTakeFirstOrThrow();
    const claims = JSON.parse(Buffer.from(admin.split(".")[1], "base64url").toString()) as Record<
      string,
      unknown
    >;
    const sign = createSigner({ key: secret, expiresIn: 60_000, clockTimestamp: Date.now() - 120_000 });
    const expired = sign({ sub: claims.sub, sid: claims.sid, typ: "access" });
    expect((await s.api("GET", "/api/users/me", { token: expired })).status).toBe(417);

    expect(await outcome(open(expired))).toMatchObject({
      message: "Access token expired",
      data: { statusCode: 417 },
    });
    expect(await outcome(open(admin))).toBe("connected");
  });

  it("refuses pages of another origin, and accepts its own", async () => {
    const foreign = await outcome(open(admin, { headers: { origin: "https://evil.example" } }));
    expect(foreign).not.toBe("connected");
    const foreignWs = await outcome(
      open(admin, { headers: { origin: "https://evil.example" }, websocketOnly: true }),
    );
    expect(foreignWs).not.toBe("connected");
    expect(await outcome(open(admin, { headers: { origin: s.baseUrl } }))).toBe("connected");
    expect(await outcome(open(admin, { headers: { origin: "https://atelier.example.test" } }))).toBe(
      "connected",
    );
  });

  it("answers subscribe with ok only for known resources of the user's modules", async () => {
    const noProducts = await createUser("live-pdf@example.com", [1]);
    const socket = await connect(noProducts.token);
    expect(await subscribe(socket, "categories")).toEqual({
      ok: false,
      message: "You do not have access to this module",
    });
    expect(await subscribe(socket, "no-such-resource")).toEqual({ ok: false, message: "Unknown resource" });
    expect(await subscribe(socket, { resource: "categories" })).toEqual({
      ok: false,
      message: "Unknown resource",
    });

    const adminSocket = await connect(admin);
    expect(await subscribe(adminSocket, "categories")).toEqual({ ok: true });

    // The refused socket is not in the room: the admin gets the change, it gets nothing.
    let leaked = 0;
    socket.on("change", () => leaked++);
    const received = nextChange(adminSocket);
    s.ctx.events.publish({
      resource: "categories",
      moduleID: 2,
      type: "updated",
      ids: ["00000000-0000-4000-8000-000000000001"],
      actorId: null,
    });
    expect(await received).toEqual({
      resource: "categories",
      type: "updated",
      ids: ["00000000-0000-4000-8000-000000000001"],
    });
    await sleep(100);
    expect(leaked).toBe(0);
  });

  it("sends a change after a real write through the API, to subscribers of that resource only", async () => {
    const categoriesSocket = await connect(admin);
    const productsSocket = await connect(admin);
    expect(await subscribe(categoriesSocket, "categories")).toEqual({ ok: true });
    expect(await subscribe(productsSocket, "products")).toEqual({ ok: true });
    let wrongRoom = 0;
    productsSocket.on("change", (m: ResourceChangeMessage) => {
      if (m.resource !== "products") wrongRoom++;
    });

    const created = nextChange(categoriesSocket);
    const res = await s.api("POST", "/api/categories", { token: admin, body: { name: "Live category" } });
    expect(res.status).toBe(201);
    const id = res.body.id as string;
    expect(await created).toEqual({ resource: "categories", type: "created", ids: [id] });

    const updated = nextChange(categoriesSocket);
    expect(
      (await s.api("PATCH", `/api/categories/${id}`, { token: admin, body: { description: "Now live" } }))
        .status,
    ).toBe(200);
    expect(await updated).toEqual({ resource: "categories", type: "updated", ids: [id] });

    const deleted = nextChange(categoriesSocket);
    expect((await s.api("DELETE", `/api/categories/${id}`, { token: admin })).status).toBe(204);
    expect(await deleted).toEqual({ resource: "categories", type: "deleted", ids: [id] });
    expect(wrongRoom).toBe(0);
  });

  it("stops sending a resource's changes after unsubscribe", async () => {
    const socket = await connect(admin);
    expect(await subscribe(socket, "categories")).toEqual({ ok: true });
    expect(await subscribe(socket, "products")).toEqual({ ok: true });
    socket.emit("unsubscribe", "categories");
    // The server handles a socket's messages in order: once this is answered, it has left.
    expect(await subscribe(socket, "products")).toEqual({ ok: true });

    const seen: string[] = [];
    socket.on("change", (m: ResourceChangeMessage) => seen.push(m.resource));
    const next = nextChange(socket);
    const change: Omit<ResourceChange, "resource"> = {
      moduleID: 2,
      type: "created",
      ids: ["x"],
      actorId: null,
    };
    s.ctx.events.publish({ ...change, resource: "categories" });
    s.ctx.events.publish({ ...change, resource: "products" });
    // Events on one socket arrive in order: had categories been sent, it would be first.
    expect((await next).resource).toBe("products");
    expect(seen).toEqual(["products"]);
  });

  it("requires the DAM module on the /dam namespace", async () => {
    const productsOnly = await createUser("live-products@example.com", [2]);
    expect(await outcome(open(productsOnly.token, { namespace: "/dam" }))).toEqual({
      message: "You do not have access to this module",
      data: { statusCode: 403 },
    });
    expect(await outcome(open(admin, { namespace: "/dam" }))).toBe("connected");
    expect(await outcome(open(undefined, { namespace: "/dam" }))).toMatchObject({
      data: { statusCode: 401 },
    });
  });

  it("answers 406 to a disabled user", async () => {
    const user = await createUser("live-disabled@example.com", [2]);
    expect(await outcome(open(user.token))).toBe("connected");
    const patched = await s.api("PATCH", `/api/users/${user.id}`, { token: admin, body: { active: false } });
    expect(patched.status).toBe(200);
    expect(await outcome(open(user.token))).toMatchObject({ data: { statusCode: 406 } });
  });

  describe("live client (providers/live-client.ts)", () => {
    const clients: LiveClient[] = [];
    afterAll(() => {
      for (const client of clients) client.disconnect();
    });

    const makeLive = (session: { accessToken: string; refreshToken: string }) => {
      const state = { ...session, refreshes: 0, logouts: 0, errors: [] as string[] };
      const client = createLiveClient({
        createSocket: (auth) => {
          const socket = io(s.baseUrl, {
            path: "/socket.io",
            auth,
            autoConnect: false,
            forceNew: true,
            reconnectionDelay: 50,
            reconnectionDelayMax: 100,
          });
          sockets.push(socket);
          return socket;
        },
        getAccessToken: () => state.accessToken,
        refresh: async () => {
          state.refreshes++;
          const res = await s.api<SignedIn>("POST", "/api/auth/refreshtokenapp", {
            body: { refreshToken: state.refreshToken },
          });
          if (res.status !== 200) throw new Error(`refresh answered ${res.status}`);
          state.accessToken = res.body.accessToken;
          state.refreshToken = res.body.refreshToken;
          return state.accessToken;
        },
        onLogout: () => state.logouts++,
        logError: (message) => state.errors.push(message),
        retryDelayMs: 50,
      });
      clients.push(client);
      return { client, state };
    };

    const listen = (client: LiveClient, resource: string, params?: { ids?: string[] }) => {
      const events: LiveEvent[] = [];
      const subscription = client.provider.subscribe({
        channel: `resources/${resource}`,
        types: ["*"],
        params,
        callback: (event: LiveEvent) => events.push(event),
      });
      return { events, subscription };
    };

    const change = (resource: string, ids: string[]): ResourceChange => ({
      resource,
      moduleID: 2,
      type: "updated",
      ids,
      actorId: null,
    });

    /** Publishes until the subscriber got it: the room is joined asynchronously. */
    const publishUntilReceived = (events: LiveEvent[], c: ResourceChange) =>
      vi.waitFor(
        () => {
          if (events.length === 0) s.ctx.events.publish(c);
          expect(events.length).toBeGreaterThan(0);
        },
        { timeout: 5000, interval: 50 },
      );

    const expiredCopyOf = async (accessToken: string) => {
      const { value: secret } = await s.ctx.db
        .selectFrom("app_settings")
        .select("value")
        .where("key", "=", "jwt_secret")
        .executeTakeFirstOrThrow();
      const claims = JSON.parse(Buffer.from(accessToken.split(".")[1], "base64url").toString());
      const sign = createSigner({ key: secret, expiresIn: 60_000, clockTimestamp: Date.now() - 120_000 });
      return sign({ sub: claims.sub, sid: claims.sid, typ: "access" });
    };

    it("refreshes an expired token on 417, subscribes, and turns changes into Refine live events", async () => {
      const session = await s.signIn(undefined, undefined, {
        deviceId: "live-1",
        deviceName: "Linux Chrome",
      });
      const expired = await expiredCopyOf(session.accessToken);
      const { client, state } = makeLive({ accessToken: expired, refreshToken: session.refreshToken });
      const { events } = listen(client, "categories");

      await publishUntilReceived(events, change("categories", ["warm-up"]));
      expect(state.refreshes).toBe(1);
      expect(state.accessToken).not.toBe(expired);
      expect(state.logouts).toBe(0);

      events.length = 0;
      const res = await s.api("POST", "/api/categories", {
        token: admin,
        body: { name: "Live via provider" },
      });
      expect(res.status).toBe(201);
      await vi.waitFor(() => expect(events).toHaveLength(1));
      expect(events[0]).toEqual({
        channel: "resources/categories",
        type: "created",
        payload: { ids: [res.body.id] },
        date: expect.any(Date),
      });
    });

    it("joins its rooms again after the connection drops", async () => {
      const session = await s.signIn(undefined, undefined, {
        deviceId: "live-2",
        deviceName: "Linux Chrome",
      });
      const { client, state } = makeLive(session);
      const { events } = listen(client, "products");
      await publishUntilReceived(events, change("products", ["before"]));

      const socket = client.socket!;
      const reconnected = new Promise<void>((resolve) => socket.io.once("reconnect", () => resolve()));
      socket.io.engine.close();
      await reconnected;
      events.length = 0;
      await publishUntilReceived(events, change("products", ["after"]));
      expect(events[0].payload.ids).toEqual(["after"]);
      expect(state.refreshes).toBe(0);
    });

    it("delivers a record subscription only its record's events, and stops after unsubscribe", async () => {
      const { client } = makeLive(
        await s.signIn(undefined, undefined, { deviceId: "live-3", deviceName: "Linux Chrome" }),
      );
      const list = listen(client, "categories");
      const one = listen(client, "categories", { ids: ["one"] });
      const sentinel = listen(client, "products");
      await publishUntilReceived(list.events, change("categories", ["warm-up"]));
      await publishUntilReceived(sentinel.events, change("products", ["warm-up"]));
      for (const l of [list, one, sentinel]) l.events.length = 0;

      s.ctx.events.publish(change("categories", ["other"]));
      s.ctx.events.publish(change("categories", ["one"]));
      s.ctx.events.publish(change("products", ["sentinel"]));
      await vi.waitFor(() => expect(sentinel.events).toHaveLength(1));
      expect(list.events.map((e) => e.payload.ids)).toEqual([["other"], ["one"]]);
      expect(one.events.map((e) => e.payload.ids)).toEqual([["one"]]);

      // One of two subscriptions left: the room is kept. Both left: the server stops sending.
      client.provider.unsubscribe(one.subscription);
      s.ctx.events.publish(change("categories", ["one"]));
      s.ctx.events.publish(change("products", ["sentinel-2"]));
      await vi.waitFor(() => expect(sentinel.events).toHaveLength(2));
      expect(list.events).toHaveLength(3);
      expect(one.events).toHaveLength(1);

      client.provider.unsubscribe(list.subscription);
      // The server handles a socket's messages in order: once this is answered, it has left.
      expect(await subscribe(client.socket!, "products")).toEqual({ ok: true });
      const seen: string[] = [];
      client.socket!.on("change", (m: ResourceChangeMessage) => seen.push(m.resource));
      s.ctx.events.publish(change("categories", ["gone"]));
      s.ctx.events.publish(change("products", ["sentinel-3"]));
      await vi.waitFor(() => expect(sentinel.events).toHaveLength(3));
      expect(seen).toEqual(["products"]);
      expect(list.events).toHaveLength(3);
    });

    it("signs out on 401, and when the refresh after a 417 fails", async () => {
      const forged = makeLive({ accessToken: "garbage", refreshToken: "garbage" });
      listen(forged.client, "categories");
      await vi.waitFor(() => expect(forged.state.logouts).toBe(1));
      expect(forged.state.refreshes).toBe(0);
      expect(forged.client.socket).toBeNull();

      const session = await s.signIn(undefined, undefined, {
        deviceId: "live-4",
        deviceName: "Linux Chrome",
      });
      const revoked = makeLive({
        accessToken: await expiredCopyOf(session.accessToken),
        refreshToken: "not-ours",
      });
      listen(revoked.client, "categories");
      await vi.waitFor(() => expect(revoked.state.logouts).toBe(1));
      expect(revoked.state.refreshes).toBe(1);
      expect(revoked.client.socket).toBeNull();
    });
  });

  it("disconnects its sockets when the app closes, without holding the close", async () => {
    const socket = await connect(admin);
    const gone = new Promise<string>((resolve) => socket.once("disconnect", resolve));
    closed = true;
    const timeout = sleep(10_000).then(() => "close timed out");
    expect(await Promise.race([s.close().then(() => "closed"), timeout])).toBe("closed");
    // "io server disconnect", "transport close" or "transport error", as the close races.
    expect(await gone).toEqual(expect.any(String));
    expect(socket.connected).toBe(false);
  });
});
