/**
 * The DATA_DIR lock (server/lock.ts) is taken atomically: several processes starting at once
 * on a stale lock (one naming a dead pid, as kill -9 leaves it) never both win. Six real
 * processes are released at the same instant on a fresh stale lock, round after round.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataDirLockedError, LOCKED_EXIT_CODE, lockDataDir } from "../../server/lock";

const ROOT = path.resolve(__dirname, "../..");
const CONTENDERS = 6;
const ROUNDS = 15;
const dirs: string[] = [];

interface Contender {
  child: ChildProcess;
  /** The next line it prints. */
  next(): Promise<string>;
  send(line: string): void;
  stderr(): string;
  exited: Promise<number | null>;
}

function contender(): Contender {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/server/lock-contender.ts"], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    const resolve = waiting.shift();
    if (resolve) resolve(line);
    else lines.push(line);
  });
  let err = "";
  child.stderr?.on("data", (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    next: () =>
      new Promise<string>((resolve, reject) => {
        const line = lines.shift();
        if (line !== undefined) return resolve(line);
        waiting.push(resolve);
        void exited.then((code) => reject(new Error(`contender exited (${code}): ${err}`)));
      }),
    send: (line) => void child.stdin?.write(`${line}\n`),
    stderr: () => err,
    exited,
  };
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.on("exit", resolve));
  return child.pid as number;
}

function staleDir(pid: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-lock-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "atelier.lock"), String(pid));
  return dir;
}

const lockPid = (dir: string) => Number(readFileSync(path.join(dir, "atelier.lock"), "utf8"));

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("the DATA_DIR lock", () => {
  it("takes a stale lock, refuses a live one, and is gone once released", async () => {
    const dir = staleDir(await deadPid());
    const release = lockDataDir(dir);
    expect(lockPid(dir)).toBe(process.pid);
    expect(readdirSync(dir)).toEqual(["atelier.lock"]);

    // Held by a live process (ours, seen from a process that is not us: a contender).
    const other = contender();
    expect(await other.next()).toBe("ready");
    other.send(`try ${dir}`);
    const answer = JSON.parse(await other.next());
    expect(answer.held).toBe(false);
    expect(answer.message).toContain(`pid ${process.pid}`);
    other.child.kill();

    release();
    expect(existsSync(path.join(dir, "atelier.lock"))).toBe(false);
  });

  it("takes over a guard left by a process killed in the middle of a takeover", async () => {
    const [stale, killedMidway] = [await deadPid(), await deadPid()];
    const dir = staleDir(stale);
    writeFileSync(path.join(dir, `atelier.lock.${stale}`), String(killedMidway));
    const release = lockDataDir(dir);
    expect(lockPid(dir)).toBe(process.pid);
    expect(readdirSync(dir)).toEqual(["atelier.lock"]);
    release();
  });

  it("takes a lock whose file is empty or garbled (a crash while writing, by an older version)", () => {
    const dir = staleDir(0);
    writeFileSync(path.join(dir, "atelier.lock"), "");
    const release = lockDataDir(dir);
    expect(lockPid(dir)).toBe(process.pid);
    release();
  });

  it("refuses with DataDirLockedError, naming the pid that holds it", () => {
    const dir = staleDir(process.ppid);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(`pid ${process.ppid}`);
  });

  describe(`${CONTENDERS} processes released at once on a stale lock`, () => {
    let contenders: Contender[] = [];

    beforeAll(async () => {
      contenders = Array.from({ length: CONTENDERS }, contender);
      for (const c of contenders) expect(await c.next()).toBe("ready");
    }, 120_000);

    afterAll(() => {
      for (const c of contenders) c.child.kill();
    });

    it(`exactly one holds it, in each of ${ROUNDS} rounds`, async () => {
      const dead = await deadPid();
      for (let round = 0; round < ROUNDS; round++) {
        const dir = staleDir(dead);
        // All at once: the commands go out back to back, each process is idle waiting for one.
        for (const c of contenders) c.send(`try ${dir}`);
        const answers = await Promise.all(contenders.map(async (c) => JSON.parse(await c.next())));
        const winners = contenders.filter((_, i) => answers[i].held);
        expect(winners, `round ${round}: ${JSON.stringify(answers)}`).toHaveLength(1);
        const winner = winners[0].child.pid;
        expect(lockPid(dir)).toBe(winner);
        for (const a of answers.filter((x) => !x.held)) expect(a.message).toContain(`pid ${winner}`);
        // No temp file or takeover guard left behind.
        expect(readdirSync(dir)).toEqual(["atelier.lock"]);
        winners[0].send("release");
        expect(JSON.parse(await winners[0].next())).toEqual({ released: true });
        expect(existsSync(path.join(dir, "atelier.lock"))).toBe(false);
      }
    }, 120_000);

    it(`as servers do: one holds it, the other ${CONTENDERS - 1} exit ${LOCKED_EXIT_CODE} with the clear message`, async () => {
      const dir = staleDir(await deadPid());
      for (const c of contenders) c.send(`exit-mode ${dir}`);
      const outcomes = await Promise.all(
        contenders.map((c) =>
          c.next().then(
            (line) => ({ held: JSON.parse(line).held === true, code: null as number | null }),
            async () => ({ held: false, code: await c.exited }),
          ),
        ),
      );
      const winners = contenders.filter((_, i) => outcomes[i].held);
      expect(winners).toHaveLength(1);
      const winner = winners[0].child.pid;
      expect(lockPid(dir)).toBe(winner);
      contenders.forEach((c, i) => {
        if (outcomes[i].held) return;
        expect(outcomes[i].code).toBe(LOCKED_EXIT_CODE);
        expect(c.stderr()).toContain(`Another Atelier server (pid ${winner}) is using ${dir}`);
      });
    }, 60_000);
  });
});
