/**
 * Runs a command while every core is kept busy, to prove the suite holds on a loaded machine
 * (no fixed sleeps, timeouts that scale):
 *
 *   npm run test:busy                      the whole `npm test` under load
 *   node scripts/busy.mjs npm test -- --only server
 *
 * One spinning worker thread per core (BUSY_WORKERS overrides) at normal priority, stopped
 * when the command ends; exits with the command's exit code.
 */
import { spawn } from "node:child_process";
import os from "node:os";
import { Worker } from "node:worker_threads";

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error("usage: node scripts/busy.mjs <command> [args…]");
  process.exit(2);
}
const count = Number(process.env.BUSY_WORKERS ?? os.availableParallelism?.() ?? os.cpus().length);
const spin = "for (;;) { let x = 0; for (let i = 0; i < 1e7; i++) x += i; }";
const workers = Array.from({ length: count }, () => new Worker(spin, { eval: true }));
console.log(`[busy] ${count} spinning worker(s) keep the cores busy while: ${[cmd, ...args].join(" ")}`);

const child = spawn(cmd, args, { stdio: "inherit" });
const stop = (signal) => child.kill(signal);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(signal));
child.on("exit", async (code, signal) => {
  await Promise.all(workers.map((w) => w.terminate()));
  process.exit(code ?? (signal ? 1 : 0));
});
