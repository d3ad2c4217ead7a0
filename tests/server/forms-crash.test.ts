/**
 * Submissions are durable before they are acknowledged (issue 15): the real server as a
 * process takes a burst of public submissions and is killed with SIGKILL in the middle of it;
 * started again on the same database, it has every submission it answered 201 to. Answers lost
 * with the process (no reply) may or may not be stored; none that was acknowledged may be lost.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { type ChildServer, freePort, spawnServer, waitFor } from "./child-server";
import { contactForm } from "./forms-fixtures";
import { ADMIN, DEVICE, DRIVERS } from "./harness";
import { createTestDatabase } from "./pg";

const CLIENTS = 16;

async function everyId(server: ChildServer, token: string, formId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let page = 1; ; page++) {
    const answer = await server.api(
      "GET",
      `/forms/forms/${formId}/submissions?pageSize=200&page=${page}&sort=created_at`,
      { token },
    );
    expect(answer.status).toBe(200);
    for (const row of answer.body.data) ids.add(row.id);
    if (answer.body.data.length < 200) return ids;
  }
}

describe.each(DRIVERS)("kill -9 during a burst of submissions on %s", (driver) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const clean of cleanups.reverse()) await clean();
  });

  it("loses no submission that was answered 2xx", async () => {
    const env: Record<string, string> = { FORMS_RATE_LIMIT: "1000000" };
    if (driver === "postgres") {
      const db = await createTestDatabase(String(inject("pgUrl")));
      env.DATABASE_URL = db.url;
      cleanups.push(() => db.drop());
    }
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-forms-crash-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    env.DATA_DIR = dataDir;

    const first = spawnServer(await freePort(), env);
    cleanups.push(() => first.stop());
    await first.waitHealthy(120_000);
    const signIn = await first.api("POST", "/api/auth/signin", { body: { ...ADMIN, deviceInfo: DEVICE } });
    const token = signIn.body.accessToken as string;
    const form = (await first.api("POST", "/forms/forms", { token, body: { name: "Crash", slug: "crash" } }))
      .body;
    const { revision } = (await first.api("GET", `/forms/forms/${form.id}/draft`, { token })).body;
    expect(
      (
        await first.api("PUT", `/forms/forms/${form.id}/draft`, {
          token,
          body: { definition: contactForm(), revision },
        })
      ).status,
    ).toBe(200);
    expect((await first.api("POST", `/forms/forms/${form.id}/publish`, { token })).status).toBe(200);

    const acknowledged: string[] = [];
    let stop = false;
    let n = 0;
    const client = async () => {
      while (!stop) {
        const i = n++;
        try {
          const answer = await first.api("POST", "/forms/f/crash/submissions", {
            body: { answers: { name: `Person ${i}`, email: `p${i}@example.com` } },
          });
          if (answer.status === 201) acknowledged.push(answer.body.id);
        } catch {
          return; // the process is gone
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, client);
    await waitFor(
      "a few hundred acknowledged submissions",
      async () => acknowledged.length >= 300,
      120_000,
      20,
    );
    first.child.kill("SIGKILL");
    await first.exited;
    stop = true;
    await Promise.all(clients);
    const acked = [...acknowledged];

    const second = spawnServer(await freePort(), env);
    cleanups.push(() => second.stop());
    await second.waitHealthy(120_000);
    const token2 = (await second.api("POST", "/api/auth/signin", { body: { ...ADMIN, deviceInfo: DEVICE } }))
      .body.accessToken;
    const stored = await everyId(second, token2, form.id);
    const lost = acked.filter((id) => !stored.has(id));
    expect(lost).toEqual([]);
    expect(stored.size).toBeGreaterThanOrEqual(acked.length);
  });
});
