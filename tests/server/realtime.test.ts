/**
 * The realtime socket against the real app: handshake status rules, module checks on
 * `subscribe` and on `/dam`, and `change` events after real writes.
 */
import { createSigner } from "fast-jwt";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceChangeMessage, SubscribeAck } from "../../schemas/realtime";
import { DRIVERS, sleep, startServer, type TestServer } from "./harness";

interface HandshakeFailure {
  message: string;
  data?: { statusCode?: number };
}

describe.each(DRIVERS)("realtime socket on %s", (driver) => {
  let s: TestServer;
  let closed = false;
  let admin: string;
  const sockets: Socket[] = [];

  const open = (
    token: string | undefined,
    options: { namespace?: string; headers?: Record<string, string>; websocketOnly?: boolean } = {},
  ) => {
    const socket = io(`${s.baseUrl}${options.namespace ?? "/"}`, {
      path: "/socket.io",
      auth: token === undefined ? {} : { token },
      forceNew: true,
      reconnection: false,
      extraHeaders: options.headers,
      ...(options.websocketOnly ? { transports: ["websocket"] } : {}),
    });
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
    const signedIn = await s.signIn(email, "Live-passw0rd", { deviceId: `dev-${email}`, deviceName: "Linux Chrome" });
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
      (await s.api("PATCH", `/api/categories/${id}`, { token: admin, body: { description: "Now live" } })).status,
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
    await sleep(50);

    const seen: string[] = [];
    socket.on("change", (m: ResourceChangeMessage) => seen.push(m.resource));
    const next = nextChange(socket);
    const change = { moduleID: 2, type: "created", ids: ["x"], actorId: null } as const;
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
    expect(await outcome(open(undefined, { namespace: "/dam" }))).toMatchObject({ data: { statusCode: 401 } });
  });

  it("answers 406 to a disabled user", async () => {
    const user = await createUser("live-disabled@example.com", [2]);
    expect(await outcome(open(user.token))).toBe("connected");
    const patched = await s.api("PATCH", `/api/users/${user.id}`, { token: admin, body: { active: false } });
    expect(patched.status).toBe(200);
    expect(await outcome(open(user.token))).toMatchObject({ data: { statusCode: 406 } });
  });

  it("disconnects its sockets when the app closes, without holding the close", async () => {
    const socket = await connect(admin);
    const gone = new Promise<string>((resolve) => socket.once("disconnect", resolve));
    closed = true;
    await s.close();
    expect(await gone).toMatch(/disconnect|close/);
  });
});
