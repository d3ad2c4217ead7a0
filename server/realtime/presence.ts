/**
 * Who has a record's edit form open (issue 14: "two editors on one entry: the second sees who
 * else is editing"), for any resource the socket serves, CMS entries and engine records alike.
 *
 * A socket emits `presence:join` (resource, id) when an edit form opens and `presence:leave`
 * when it closes; a disconnect leaves everything. The socket is then in room
 * `editing:<resource>:<id>`, and each time someone comes or goes every socket of that room
 * gets `presence` with the people in it (one entry per user, by name), read with
 * `fetchSockets()`, so with the cluster adapter the editors on every instance are counted.
 */
import type { Editor, PresenceAck } from "../../schemas/realtime";
import type { AppContext } from "../context";
import type { AppNamespace, AppSocket } from "./socket-types";

/** A record id as the engine writes them (uuid) or a single's key; nothing else is joined. */
const RECORD_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** Edit forms one socket may say it has open (a tab has one; a few more for split views). */
const MAX_OPEN_FORMS = 10;

const roomOf = (resource: string, id: string) => `editing:${resource}:${id}`;

export interface PresenceDeps {
  ctx: AppContext;
  /** The resource by name, when the socket serves it. */
  lookup: (name: string) => { name: string; moduleID: number } | undefined;
  /** The modules the socket's user holds now. */
  granted: (socket: AppSocket) => Promise<ReadonlySet<number>>;
}

/** The people in a room, by name, each once. */
async function editorsIn(root: AppNamespace, room: string): Promise<Editor[]> {
  const sockets = await root.in(room).fetchSockets();
  const byUser = new Map<string, Editor>();
  for (const s of sockets) {
    const userId = s.data.principal?.userId;
    if (userId && !byUser.has(userId)) byUser.set(userId, { userId, name: s.data.name ?? "Someone" });
  }
  return [...byUser.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Wires presence into the root namespace; call once per connecting socket. */
export function presenceFor(root: AppNamespace, deps: PresenceDeps) {
  const log = deps.ctx.log.child({ component: "presence" });

  const tell = async (resource: string, id: string) => {
    const room = roomOf(resource, id);
    try {
      root.to(room).emit("presence", { resource, id, editors: await editorsIn(root, room) });
    } catch (error) {
      log.warn({ err: error, room }, "presence not sent");
    }
  };

  const nameOf = async (userId: string): Promise<string> => {
    const user = await deps.ctx.db
      .selectFrom("users")
      .select(["first_name", "last_name", "email"])
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!user) return "Someone";
    return `${user.first_name} ${user.last_name}`.trim() || user.email;
  };

  return (socket: AppSocket) => {
    /** `resource\0id` of the forms this socket has open. */
    const open = new Set<string>();

    socket.on("presence:join", async (resource, id, ack) => {
      const reply = (answer: PresenceAck) => {
        if (typeof ack === "function") ack(answer);
      };
      const def = typeof resource === "string" ? deps.lookup(resource) : undefined;
      if (!def || typeof id !== "string" || !RECORD_ID.test(id))
        return reply({ ok: false, message: "Unknown record" });
      const key = `${def.name}\0${id}`;
      if (!open.has(key) && open.size >= MAX_OPEN_FORMS)
        return reply({ ok: false, message: "Too many open forms on this connection" });
      try {
        if (!(await deps.granted(socket)).has(def.moduleID))
          return reply({ ok: false, message: "You do not have access to this module" });
        socket.data.name ??= await nameOf(socket.data.principal.userId);
      } catch (error) {
        log.warn({ err: error }, "presence join: user not read");
        return reply({ ok: false, message: "Presence is unavailable right now" });
      }
      open.add(key);
      try {
        await socket.join(roomOf(def.name, id));
        reply({ ok: true, editors: await editorsIn(root, roomOf(def.name, id)) });
      } catch (error) {
        // Another instance did not answer in time: the next change of the room tells everyone.
        log.warn({ err: error }, "presence join: editors not read");
        reply({ ok: false, message: "Presence is unavailable right now" });
        return;
      }
      await tell(def.name, id);
    });

    socket.on("presence:leave", async (resource, id) => {
      const key = `${resource}\0${id}`;
      if (typeof resource !== "string" || typeof id !== "string" || !open.delete(key)) return;
      try {
        await socket.leave(roomOf(resource, id));
      } catch (error) {
        log.warn({ err: error }, "presence leave failed");
      }
      await tell(resource, id);
    });

    socket.on("disconnect", () => {
      for (const key of open) {
        const [resource, id] = key.split("\0");
        void tell(resource, id);
      }
      open.clear();
    });
  };
}
