/**
 * The tool host's own process (see tool-host.ts): starts the programs its parent asks for and
 * relays their output and exit over the IPC channel. Plain JavaScript, started without tsx, so
 * it stays small (~40 MB) and every fork from it is cheap.
 *
 * In:  { op: "spawn", id, file, args, stdout }  |  { op: "kill", id, signal }
 * Out: { op: "spawned", id, pid }  |  { op: "error", id, message, code }
 *      { op: "out" | "err", id, data }  |  { op: "close", id, code, signal }
 */
import { spawn } from "node:child_process";

/** @type {Map<number, import("node:child_process").ChildProcess>} */
const running = new Map();

const send = (message) => {
  if (process.connected) process.send(message);
};

process.on("message", (message) => {
  if (message.op === "kill") {
    running.get(message.id)?.kill(message.signal);
    return;
  }
  if (message.op !== "spawn") return;
  const { id, file, args, stdout } = message;
  const child = spawn(file, args, { stdio: ["ignore", stdout ? "pipe" : "ignore", "pipe"] });
  running.set(id, child);
  if (child.pid !== undefined) send({ op: "spawned", id, pid: child.pid });
  child.stdout?.on("data", (data) => send({ op: "out", id, data }));
  child.stderr.on("data", (data) => send({ op: "err", id, data }));
  child.on("error", (error) => {
    send({ op: "error", id, message: error.message, code: error.code });
    // Never started (ENOENT…): no "close" may follow, so say it here.
    if (child.pid === undefined && running.delete(id)) send({ op: "close", id, code: null, signal: null });
  });
  child.on("close", (code, signal) => {
    if (running.delete(id)) send({ op: "close", id, code, signal });
  });
});

// The parent is gone (or let us go): nothing we started may outlive it.
process.on("disconnect", () => {
  for (const child of running.values()) child.kill("SIGKILL");
  process.exit(0);
});
