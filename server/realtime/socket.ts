/**
 * Realtime socket (ARCHITECTURE.md §5): socket.io on the app's own HTTP server, path
 * `/socket.io`, authenticated with the access token like any API call.
 *
 * - `/` carries app events. A client emits `subscribe` with a resource name; when the user
 *   has the resource's module the socket joins room `resource:<name>` and then receives a
 *   `change` `{ resource, type, ids }` after every committed write on it (from
 *   `ctx.events`). `unsubscribe` leaves. Each socket is also in `user:<id>` and
 *   `session:<id>`, for events meant for one user (upload and processing progress) or one
 *   session.
 * - `account` (from `ctx.accountEvents`) tells a user's sockets that their role or grants
 *   changed (the socket leaves the rooms of modules no longer granted; the page reloads its
 *   identity), or that their session ended (disabled, deleted, device signed out), after
 *   which the server disconnects those sockets.
 * - `notification` (from `ctx.notifications.live`) goes to `user:<id>`: a new notification
 *   of that user (server/notifications), or some read or deleted in another of their tabs.
 * - `/dam` is the asset manager's namespace: same handshake, plus the DAM module grant.
 *
 * Handshake failures follow the HTTP status rules, sent as `connect_error` with
 * `err.data = { statusCode }`: 417 (expired token: the client refreshes and reconnects,
 * its `auth` callback reading the fresh token), 401/406 (sign out), 403 (no module).
 * A connected socket keeps its handshake's session; its grants are read again at each
 * `subscribe`, so a module revoked since the handshake is refused.
 *
 * Scale-out: every event goes out with `nsp.to(room).emit` / `nsp.emit`, through the
 * socket.io adapter, never by walking this process's sockets. The default in-memory adapter
 * reaches the sockets of this process only, which is right on PGlite (one process). On
 * PostgreSQL the app passes `options.adapter = broadcastAdapter(...)` (./cluster-adapter.ts):
 * the instance that commits a change emits it once, and the sockets of that room on every
 * instance receive it. A later module's live feature does the same: emit through a
 * namespace or a room, never through `nsp.local` or a socket list.
 */
import type { IncomingMessage } from "node:http";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { Server, type ServerOptions } from "socket.io";
import type { ResourceDefinition } from "../../resources/contract";
import { RESOURCES } from "../../resources/index";
import { MODULE_IDS } from "../../resources/modules";
import { DAM_CHANGE_EVENT } from "../../schemas/dam";
import {
  DAM_NAMESPACE,
  type HandshakeErrorData,
  type ResourceChangeMessage,
  SOCKET_PATH,
  type SubscribeAck,
} from "../../schemas/realtime";
import { runtimeFamilyOf } from "../../src/lib/runtime-resources";
import { bearerToken, type Principal, resolvePrincipal } from "../auth/principal";
import type { AppContext } from "../context";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "../db/unavailable";
import { HttpError } from "../http/errors";
import { presenceFor } from "./presence";
import type { AppNamespace, AppSocket, RealtimeServer } from "./socket-types";

export type { AppNamespace, AppSocket, RealtimeServer } from "./socket-types";

export interface RealtimeOptions {
  /** Resources a client may subscribe to; all of resources/index.ts by default. */
  resources?: readonly ResourceDefinition[];
  /** socket.io adapter for multi-instance fan-out (see the header comment). */
  adapter?: ServerOptions["adapter"];
}

export interface Realtime {
  io: RealtimeServer;
  /** The `/dam` namespace (authenticated, DAM module required). */
  dam: AppNamespace;
  /** Disconnects every socket and releases the adapters; the HTTP server is Fastify's. */
  close(): Promise<void>;
}

export const resourceRoom = (resource: string) => `resource:${resource}`;
export const userRoom = (userId: string) => `user:${userId}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

const NO_MODULE = "You do not have access to this module";

/** An Error for `next()`: socket.io sends `message` and `data` to the client's `connect_error`. */
function handshakeError(error: unknown, log: FastifyBaseLogger): Error & { data: HandshakeErrorData } {
  if (isDatabaseUnavailable(error)) {
    // The client retries the handshake by itself; no error log for every socket in an outage.
    return Object.assign(new Error(DATABASE_UNAVAILABLE_MESSAGE), { data: { statusCode: 503 } });
  }
  const statusCode = error instanceof HttpError ? error.statusCode : 500;
  if (!(error instanceof HttpError)) log.error({ err: error }, "socket handshake failed");
  const message = error instanceof HttpError ? error.message : "Something Went Wrong";
  return Object.assign(new Error(message), { data: { statusCode } });
}

function tokenOf(socket: AppSocket): string | null {
  const token: unknown = socket.handshake.auth?.token;
  if (typeof token === "string" && token !== "") return token;
  return bearerToken(socket.handshake.headers.authorization);
}

const personalRooms = (p: Principal) => [userRoom(p.userId), sessionRoom(p.sessionId)];

/**
 * The modules a socket's user holds now: the session cache when it has the session (it is
 * forgotten on every grant change), else the database.
 */
async function grantedModules(ctx: AppContext, principal: Principal): Promise<ReadonlySet<number>> {
  const cached = ctx.principals.get(principal.sessionId);
  if (cached) return cached.modules;
  const rows = await ctx.db
    .selectFrom("user_modules")
    .select("module_id")
    .where("user_id", "=", principal.userId)
    .execute();
  return new Set(rows.map((r) => Number(r.module_id)));
}

/**
 * Same origin only. Browsers send `Origin` on the WebSocket upgrade and on polling
 * requests, and a WebSocket has no CORS, so the check is here rather than in CORS headers
 * (none are sent, so cross-origin polling is refused by the browser too). A request
 * without `Origin` is not from a page; its token still decides.
 */
export function isSameOrigin(req: Pick<IncomingMessage, "headers">, publicUrl: string): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  try {
    const url = new URL(origin);
    return url.origin === new URL(publicUrl).origin || url.host === req.headers.host;
  } catch {
    return false;
  }
}

/**
 * Starts socket.io on the app's HTTP server and fans resource changes out to it.
 * Closed by the app (preClose), before Fastify closes the server.
 *
 * @example
 * attachRealtime(app, ctx); // in buildApp, after the routes
 */
export function attachRealtime(
  app: FastifyInstance,
  ctx: AppContext,
  options: RealtimeOptions = {},
): Realtime {
  const resources = options.resources ?? RESOURCES;
  const byName = new Map(resources.map((r) => [r.name, r]));
  // A resource by name: a defined one, or one of a run-time family (CMS entries of a type).
  const lookup = (name: string): { name: string; moduleID: number } | undefined => {
    const def = byName.get(name);
    if (def) return def;
    const family = runtimeFamilyOf(name);
    return family ? { name, moduleID: family.moduleID } : undefined;
  };
  const log = ctx.log.child({ component: "realtime" });

  const io: RealtimeServer = new Server(app.server, {
    path: SOCKET_PATH,
    serveClient: false,
    // Client messages are resource names; nothing big ever comes in.
    maxHttpBufferSize: 16 * 1024,
    allowRequest: (req, callback) => {
      const ok = isSameOrigin(req, ctx.config.publicUrl);
      callback(ok ? null : "Origin not allowed", ok);
    },
    ...(options.adapter ? { adapter: options.adapter } : {}),
  });
  // Engine.io answers (polling, handshake) bypass Fastify's hooks; it sends no-store itself.
  const baseline = (headers: Record<string, string>) => {
    headers["X-Content-Type-Options"] = "nosniff";
  };
  io.engine.on("initial_headers", baseline);
  io.engine.on("headers", baseline);

  const authenticate = (moduleID?: number) => async (socket: AppSocket, next: (err?: Error) => void) => {
    try {
      const principal = await resolvePrincipal(ctx, tokenOf(socket));
      if (moduleID !== undefined && !principal.modules.has(moduleID)) throw new HttpError(403, NO_MODULE);
      socket.data.principal = principal;
      next();
    } catch (error) {
      next(handshakeError(error, log));
    }
  };

  const root = io.of("/");
  root.use(authenticate());
  const presence = presenceFor(root, {
    ctx,
    lookup,
    granted: (socket) => grantedModules(ctx, socket.data.principal),
  });
  root.on("connection", async (socket) => {
    const { principal } = socket.data;
    presence(socket);
    socket.on("subscribe", async (name, ack) => {
      const reply = (answer: SubscribeAck) => {
        if (typeof ack === "function") ack(answer);
      };
      const def = typeof name === "string" ? lookup(name) : undefined;
      if (!def) return reply({ ok: false, message: "Unknown resource" });
      let granted: ReadonlySet<number>;
      try {
        granted = await grantedModules(ctx, principal);
      } catch (error) {
        log.warn({ err: error }, "socket subscribe: grants not read");
        return reply({ ok: false, message: "Live updates are unavailable right now" });
      }
      if (!granted.has(def.moduleID)) return reply({ ok: false, message: NO_MODULE });
      await socket.join(resourceRoom(def.name));
      reply({ ok: true });
    });
    socket.on("unsubscribe", async (name) => {
      if (typeof name === "string" && lookup(name)) await socket.leave(resourceRoom(name));
    });
    await socket.join(personalRooms(principal));
  });

  const dam = io.of(DAM_NAMESPACE);
  dam.use(authenticate(MODULE_IDS.dam));
  dam.on("connection", async (socket) => {
    await socket.join(personalRooms(socket.data.principal));
  });

  // socket.io's in-memory adapter (PGlite: one process) encodes a packet even for an empty
  // room: with nobody here watching that resource there is nobody to tell. A cluster adapter
  // is always told, for the sockets of the other instances.
  const localOnly = !options.adapter;
  const stopResourceFanOut = ctx.events.subscribe((change) => {
    if (!lookup(change.resource)) return;
    const room = resourceRoom(change.resource);
    if (localOnly && !root.adapter.rooms.has(room)) return;
    const message: ResourceChangeMessage = { resource: change.resource, type: change.type, ids: change.ids };
    root.to(room).emit("change", message);
  });
  // Every socket of /dam has the DAM module (checked at the handshake).
  const stopDamFanOut = ctx.damEvents.subscribe((change) => dam.emit(DAM_CHANGE_EVENT, change));
  const stopAccountFanOut = ctx.accountEvents.subscribe((change) => {
    if (change.type === "access-changed") {
      const room = userRoom(change.userId);
      root.to(room).emit("account", { type: "access-changed" });
      const granted = new Set(change.modules);
      const revoked = resources.filter((r) => !granted.has(r.moduleID)).map((r) => resourceRoom(r.name));
      if (revoked.length) root.in(room).socketsLeave(revoked);
      if (!granted.has(MODULE_IDS.dam)) dam.in(room).disconnectSockets();
      return;
    }
    const rooms = change.sessionIds ? change.sessionIds.map(sessionRoom) : [userRoom(change.userId)];
    if (!rooms.length) return;
    // Same connection, same order: the page reads why before it is disconnected.
    root.to(rooms).emit("account", { type: "session-ended", reason: change.reason });
    root.in(rooms).disconnectSockets();
    dam.in(rooms).disconnectSockets();
  });
  // Notifications (server/notifications): to the user's own room, so on every instance only
  // their pages get them. The sender checked the module grant when it wrote them.
  const stopNotificationFanOut = ctx.notifications.live.subscribe(({ userId, message }) => {
    root.to(userRoom(userId)).emit("notification", message);
  });
  const stopFanOut = () => {
    stopNotificationFanOut();
    stopResourceFanOut();
    stopDamFanOut();
    stopAccountFanOut();
  };

  let closing: Promise<void> | null = null;
  const close = () => {
    // Not io.close(): that also closes the HTTP server, which is Fastify's to close. Open
    // WebSockets would keep that close waiting, hence this runs in preClose.
    closing ??= (async () => {
      stopFanOut();
      for (const nsp of [root, dam]) nsp.local.disconnectSockets(true);
      io.engine.close();
      await Promise.allSettled([root, dam].map(async (nsp) => nsp.adapter.close()));
    })();
    return closing;
  };
  app.addHook("preClose", close);

  return { io, dam, close };
}
