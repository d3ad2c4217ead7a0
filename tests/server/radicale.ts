/**
 * A real CalDAV server for the calendar tests: Debian's Radicale (`/usr/bin/radicale`, which
 * .ci/run installs), on a free loopback port, with a throwaway storage folder and plain htpasswd
 * users. Each user's calendars are made with MKCALENDAR, as a calendar app would.
 *
 * @example
 * const dav = await startRadicale({ alice: "alice-app-password" });
 * const calendarUrl = await dav.makeCalendar("alice", "work", "Work");
 * const s = await startServer("pglite", { OUTBOUND_ALLOW_PRIVATE: "true" });
 * // … PUT /crm/calendar/connection { url: dav.url, username: "alice", password: … }
 * await dav.close();
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";

export const RADICALE_BIN = process.env.RADICALE_BIN ?? "radicale";

export interface TestRadicale {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** Makes `/<user>/<slug>/` a calendar of events; answers its URL. */
  makeCalendar(user: string, slug: string, displayName: string): Promise<string>;
  /** A request as `user` (their current password), e.g. GET of an event's .ics. */
  request(user: string, url: string, init?: RequestInit): Promise<Response>;
  /** Changes a user's password (Radicale reads its htpasswd file at each login): a revoked app password. */
  setPassword(user: string, password: string): void;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts Radicale for `users` (name → password) and waits until it answers. */
export async function startRadicale(users: Readonly<Record<string, string>>): Promise<TestRadicale> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-radicale-"));
  const htpasswd = path.join(dir, "users");
  const passwords = { ...users };
  const writeUsers = () =>
    writeFileSync(
      htpasswd,
      Object.entries(passwords)
        .map(([name, password]) => `${name}:${password}\n`)
        .join(""),
    );
  writeUsers();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  let output = "";
  const child: ChildProcess = spawn(
    RADICALE_BIN,
    [
      // No /etc/radicale/config: the tests' settings only (its rights file would differ per host).
      "--config",
      "",
      "--server-hosts",
      `127.0.0.1:${port}`,
      "--auth-type",
      "htpasswd",
      "--auth-htpasswd-filename",
      htpasswd,
      "--auth-htpasswd-encryption",
      "plain",
      // A wrong password is answered at once, not after Radicale's usual pause.
      "--auth-delay",
      "0",
      "--rights-type",
      "owner_only",
      "--storage-filesystem-folder",
      path.join(dir, "collections"),
      "--logging-level",
      "warning",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<never>((_, reject) => {
    child.once("error", (error) =>
      reject(new Error(`radicale did not start (${error.message}): is it installed?`)),
    );
    child.once("exit", (code) => reject(new Error(`radicale exited with ${code}:\n${output}`)));
  });

  const auth = (user: string) => `Basic ${Buffer.from(`${user}:${passwords[user]}`).toString("base64")}`;
  const request = (user: string, target: string, init: RequestInit = {}) =>
    fetch(new URL(target, url), { ...init, headers: { authorization: auth(user), ...init.headers } });

  // Ready when it answers anything over HTTP.
  const deadline = Date.now() + 20_000;
  const ready = (async () => {
    for (;;) {
      try {
        await (await fetch(url, { method: "OPTIONS" })).arrayBuffer();
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`radicale did not answer on ${url}:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  })();
  try {
    await Promise.race([ready, exited]);
  } catch (error) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  exited.catch(() => {}); // its later exit (on close) is expected

  return {
    url,
    request,
    setPassword(user, password) {
      passwords[user] = password;
      writeUsers();
    },
    async makeCalendar(user, slug, displayName) {
      const target = new URL(`/${user}/${slug}/`, url).href;
      const body = `<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:set><D:prop>
    <D:displayname>${displayName}</D:displayname>
    <C:supported-calendar-component-set><C:comp name="VEVENT"/></C:supported-calendar-component-set>
  </D:prop></D:set>
</C:mkcalendar>`;
      const res = await request(user, target, {
        method: "MKCALENDAR",
        headers: { "content-type": "application/xml; charset=utf-8" },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`MKCALENDAR ${target}: ${res.status}`);
      return target;
    },
    async close() {
      if (child.exitCode === null) {
        const gone = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
