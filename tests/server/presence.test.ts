/**
 * Presence on the realtime socket (issue 14: the second editor sees who else is editing): who
 * has a record's edit form open, told to each of them as people come and go; only for users
 * with the resource's module and for well-formed ids; one entry per user however many tabs.
 */
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODULE_IDS } from "../../resources/modules";
import type { PresenceAck, PresenceMessage } from "../../schemas/realtime";
import { DRIVERS, startServer, type TestServer } from "./harness";
import { openSocket, Received } from "./received";

describe.each(DRIVERS)("presence on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  const sockets: Socket[] = [];

  const connect = (token: string) => openSocket(s.baseUrl, token, sockets);
  const join = (socket: Socket, resource: string, id: string) =>
    socket.timeout(10_000).emitWithAck("presence:join", resource, id) as Promise<PresenceAck>;

  const userWith = async (first: string, modules: number[]) => {
    const email = `${first.toLowerCase()}-${Date.now()}@example.com`;
    const made = await s.api("POST", "/api/users", {
      token: admin,
      body: {
        first_name: first,
        last_name: "Tester",
        email,
        password: "Presence-passw0rd",
        role: 3,
        modules,
      },
    });
    expect(made.status).toBe(201);
    return (await s.signIn(email, "Presence-passw0rd")).accessToken;
  };

  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await s?.close();
  });

  it("tells everyone on a record who is there, as people come and go, one entry per user", async () => {
    const id = "0b1f5a52-4d1e-4f7c-9a55-3d4a8f1e2c01";
    const ann = await connect(admin);
    const annHears = new Received<PresenceMessage>(ann, "presence");
    const alone = await join(ann, "products", id);
    expect(alone).toEqual({ ok: true, editors: [expect.objectContaining({ name: "Admin User" })] });

    const bobToken = await userWith("Bob", [MODULE_IDS.products]);
    /** What Ann was told last, once it matches (later news replaces earlier). */
    const annNow = (names: string[], what: string) =>
      annHears.until(
        (m) =>
          m === annHears.seen.at(-1) &&
          JSON.stringify(m.editors.map((e) => e.name)) === JSON.stringify(names),
        what,
      );

    const bob = await connect(bobToken);
    const both = await join(bob, "products", id);
    expect(both.ok && both.editors.map((e) => e.name)).toEqual(["Admin User", "Bob Tester"]);
    await annNow(["Admin User", "Bob Tester"], "Bob's arrival");

    // Ann's second tab adds no one.
    const annAgain = await connect(admin);
    const tabs = await join(annAgain, "products", id);
    expect(tabs.ok && tabs.editors.map((e) => e.name)).toEqual(["Admin User", "Bob Tester"]);
    annAgain.close();

    // Bob closes the form: Ann is told. Bob comes back in another tab and that tab closes: told again.
    bob.emit("presence:leave", "products", id);
    await annNow(["Admin User"], "Bob's leaving");
    const bobAgain = await connect(bobToken);
    await join(bobAgain, "products", id);
    await annNow(["Admin User", "Bob Tester"], "Bob's return");
    bobAgain.close();
    await annNow(["Admin User"], "the news of Bob's closed tab");
  });

  it("refuses records of modules the user lacks, unknown resources and malformed ids", async () => {
    const nora = await connect(await userWith("Nora", [MODULE_IDS.dam]));
    expect(await join(nora, "products", "0b1f5a52-4d1e-4f7c-9a55-3d4a8f1e2c02")).toEqual({
      ok: false,
      message: "You do not have access to this module",
    });
    expect(await join(nora, "no-such-resource", "x")).toMatchObject({ ok: false });
    expect(await join(nora, "products", "../../etc")).toMatchObject({ ok: false, message: "Unknown record" });
    expect(await join(nora, "products", "x".repeat(101))).toMatchObject({ ok: false });
  });
});
