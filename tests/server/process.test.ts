/**
 * The server as a process on PGlite: data-folder lock, bad config, graceful shutdown,
 * and durability across kill -9 (no write answered 2xx is lost).
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeCataloguePdf } from "../fixtures/make-pdf";
import { type ChildServer, freePort, spawnServer } from "./child-server";
import { ADMIN, DEVICE, migratedDataDir, sleep } from "./harness";
import { until } from "./jobs-helpers";

const dirs: string[] = [];
const children: ChildProcess[] = [];

/** The server as a process on `dataDir` (kept across restarts), killed after the file if still up. */
function start(dataDir: string, port: number, env: Record<string, string> = {}): ChildServer {
  const server = spawnServer(port, { DATA_DIR: dataDir, ...env });
  children.push(server.child);
  return server;
}

const waitHealthy = (p: ChildServer) => p.waitHealthy();

async function signIn(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/auth/signin`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password, deviceInfo: DEVICE }),
  });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

async function countUsers(port: number, token: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/api/users?pageSize=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await res.json()) as { total: number }).total;
}

function tempDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-proc-"));
  dirs.push(dir);
  return dir;
}

/** A folder whose database is migrated already, for tests about what happens after a boot. */
async function migratedDir() {
  const dir = await migratedDataDir("proc");
  dirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// Each test starts servers on fresh data folders, two or three in a row: on a loaded machine
// that is past the suite's 120 s default, so the file's cap is longer (still a cap, not a check).
describe("server process on PGlite", { timeout: 480_000 }, () => {
  it("refuses a bad setting with a clear message", async () => {
    // Both at once: each start is mostly the loading of the server's code.
    const p = start(tempDir(), 1, { PORT: "eighty" });
    const common = start(tempDir(), await freePort(), { ADMIN_PASSWORD: "password123" });
    expect(await p.exited).toBe(78);
    expect(p.output()).toContain("PORT must be a whole number");
    expect(await common.exited).toBe(78);
    expect(common.output()).toContain("ADMIN_PASSWORD is a common password");
  });

  it("a second server on the same DATA_DIR fails fast naming the running pid; SIGTERM shuts down cleanly", async () => {
    const dir = tempDir();
    const first = start(dir, await freePort());
    await waitHealthy(first);
    const second = start(dir, await freePort());
    expect(await second.exited).toBe(75);
    expect(second.output()).toContain(`pid ${first.child.pid}`);

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    // The lock went with it: a new server starts on the same folder.
    const third = start(dir, await freePort());
    await waitHealthy(third);
    third.child.kill("SIGINT");
    expect(await third.exited).toBe(0);
  });

  it("loses no write answered 2xx when killed with -9", async () => {
    const dir = await migratedDir();
    const p = start(dir, await freePort());
    await waitHealthy(p);
    const token = await signIn(p.port);
    let acknowledged = 0;
    let stop = false;
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await fetch(`http://127.0.0.1:${p.port}/api/users`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
            body: JSON.stringify({
              first_name: "Kill",
              last_name: String(i),
              email: `kill${i}@example.com`,
              password: "Passw0rd-123",
              role: 3,
              modules: [1],
            }),
          });
          if (res.status === 201) acknowledged++;
        } catch {
          return; // connection cut by the kill
        }
      }
    })();
    // Killed mid-stream, once writes are being answered (a condition, not a time).
    await until(() => acknowledged >= 20, "twenty users acknowledged", 60_000);
    p.child.kill("SIGKILL");
    stop = true;
    await writer;
    await p.exited;
    expect(acknowledged).toBeGreaterThan(3);

    const again = start(dir, await freePort());
    await waitHealthy(again);
    const total = await countUsers(again.port, await signIn(again.port));
    // The admin plus every acknowledged user; at most one more (written, not yet answered).
    expect(total).toBeGreaterThanOrEqual(acknowledged + 1);
    expect(total).toBeLessThanOrEqual(acknowledged + 2);
    again.child.kill("SIGTERM");
    await again.exited;
  });

  it("resumes a PDF's processing after kill -9, keeping the pages already rendered", async () => {
    const dir = await migratedDir();
    const p = start(dir, await freePort());
    await waitHealthy(p);
    const token = await signIn(p.port);
    const form = new FormData();
    const pdf = await makeCataloguePdf({ pages: 60, photos: true });
    form.append("file", new Blob([new Uint8Array(pdf)], { type: "application/pdf" }), "big.pdf");
    const created = await fetch(`http://127.0.0.1:${p.port}/api/pdfs`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const state = async (port: number, t: string) =>
      (await (
        await fetch(`http://127.0.0.1:${port}/api/pdfs/${id}`, { headers: { authorization: `Bearer ${t}` } })
      ).json()) as {
        pdflist_status: string;
        progress: number;
      };
    // Kill it half-way through rendering.
    for (const until = Date.now() + 120_000; Date.now() < until; ) {
      const now = await state(p.port, token);
      if (now.pdflist_status === "processing" && now.progress >= 15) break;
      expect(now.pdflist_status).not.toBe("ready");
      await sleep(25);
    }
    p.child.kill("SIGKILL");
    const killedAt = Date.now();
    await p.exited;
    const firstPage = path.join(dir, "storage", "pdfs", id, "v1", "p1-w320.jpg");
    expect(statSync(firstPage).mtimeMs).toBeLessThan(killedAt);

    const again = start(dir, await freePort());
    await waitHealthy(again);
    const token2 = await signIn(again.port);
    let last = await state(again.port, token2);
    for (const until = Date.now() + 240_000; Date.now() < until && last.pdflist_status !== "ready"; ) {
      await sleep(100);
      last = await state(again.port, token2);
    }
    expect(last).toMatchObject({ pdflist_status: "ready", progress: 100 });
    const pages = (await (
      await fetch(`http://127.0.0.1:${again.port}/api/pdfs/${id}/pages`, {
        headers: { authorization: `Bearer ${token2}` },
      })
    ).json()) as { data: { images: Record<string, string> }[] };
    expect(pages.data).toHaveLength(60);
    expect(pages.data.every((page) => page.images.thumbnail && page.images.screen && page.images.zoom)).toBe(
      true,
    );
    // Resumed, not restarted: page 1 was rendered before the kill and left alone.
    expect(statSync(firstPage).mtimeMs).toBeLessThan(killedAt);
    again.child.kill("SIGTERM");
    await again.exited;
    // Rendering 60 pages twice over (pdf.js without poppler) on a loaded machine takes minutes.
  }, 300_000);
});
