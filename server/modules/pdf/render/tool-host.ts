/**
 * Starts command line tools from a small helper process instead of this one.
 *
 * Linux starts a child by forking, and a fork costs in proportion to the parent's memory: the
 * server with embedded PGlite holds ~850 MB, so each `spawn` blocked the event loop ~40 ms
 * (measured; ~16 ms even without the database), and a catalogue starts five tools. The host
 * (tool-host-child.mjs, plain Node without tsx, ~40 MB) is forked once, on first use, and
 * forks the tools for us; their output comes back over its IPC channel.
 *
 * `hostSpawn` answers a `ToolProcess`, which behaves as much like a `ChildProcess` as run-tool.ts
 * needs: `stdout`/`stderr` streams, `pid`, `kill()`, and "error" then "close" events. Should the
 * host die, every tool it ran ends with an error and the next call starts a new host. The host
 * exits, killing its tools, when this process exits.
 */
import { type ChildProcess, fork } from "node:child_process";
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";

const HOST_SCRIPT = fileURLToPath(new URL("./tool-host-child.mjs", import.meta.url));

type HostMessage =
  | { op: "spawned"; id: number; pid: number }
  | { op: "error"; id: number; message: string; code?: string }
  | { op: "out" | "err"; id: number; data: Uint8Array }
  | { op: "close"; id: number; code: number | null; signal: NodeJS.Signals | null };

/** A tool started by the host: the part of `ChildProcess` that run-tool.ts uses. */
export class ToolProcess extends EventEmitter {
  pid: number | undefined;
  readonly stdout: PassThrough | null;
  readonly stderr = new PassThrough();
  /** Set once "close" has been emitted. */
  closed = false;

  constructor(
    private readonly id: number,
    keepStdout: boolean,
  ) {
    super();
    this.stdout = keepStdout ? new PassThrough() : null;
  }

  kill(signal: NodeJS.Signals = "SIGTERM"): void {
    if (!this.closed) host?.process.send({ op: "kill", id: this.id, signal });
  }

  /** Ends both streams, then emits "close" (as Node does: after the streams have ended). */
  close(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.closed) return;
    this.closed = true;
    let open = this.stdout ? 2 : 1;
    const done = () => {
      if (--open === 0) this.emit("close", code, signal);
    };
    for (const stream of [this.stdout, this.stderr]) {
      if (!stream) continue;
      stream.once("end", done);
      stream.end();
      stream.resume(); // nobody may be reading: "end" must come all the same
    }
  }
}

interface Host {
  process: ChildProcess;
  tools: Map<number, ToolProcess>;
}

let host: Host | undefined;
let nextId = 1;

function startHost(): Host {
  const child = fork(HOST_SCRIPT, [], {
    // Not this process's `--import tsx`: the host is plain JavaScript and should stay small.
    execArgv: [],
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const started: Host = { process: child, tools: new Map() };
  child.on("message", (message: HostMessage) => {
    const tool = started.tools.get(message.id);
    if (!tool) return;
    switch (message.op) {
      case "spawned":
        tool.pid = message.pid;
        break;
      case "out":
        tool.stdout?.write(message.data);
        break;
      case "err":
        tool.stderr.write(message.data);
        break;
      case "error":
        tool.emit("error", Object.assign(new Error(message.message), { code: message.code }));
        break;
      case "close":
        started.tools.delete(message.id);
        tool.close(message.code, message.signal);
        idle(started);
        break;
    }
  });
  const lost = (why: string) => {
    if (host === started) host = undefined;
    for (const tool of started.tools.values()) {
      tool.emit("error", new Error(`The tool host ${why}`));
      tool.close(null, "SIGKILL");
    }
    started.tools.clear();
  };
  child.on("exit", (code, signal) => lost(`exited (${signal ?? `code ${code}`})`));
  child.on("error", (error) => lost(`failed: ${error.message}`));
  idle(started);
  return started;
}

/** While no tool runs, the host must not keep this process alive. */
function idle(of: Host): void {
  if (of.tools.size > 0) return;
  of.process.unref();
  of.process.channel?.unref();
}

/** Starts `file` with `args` in the host; stdout is kept only when asked for. */
export function hostSpawn(file: string, args: readonly string[], options: { stdout: boolean }): ToolProcess {
  host ??= startHost();
  const id = nextId++;
  const tool = new ToolProcess(id, options.stdout);
  host.tools.set(id, tool);
  host.process.ref();
  host.process.channel?.ref();
  host.process.send({ op: "spawn", id, file, args, stdout: options.stdout });
  return tool;
}

/** The host's process id while it runs (for tests and diagnostics). */
export const toolHostPid = (): number | undefined => host?.process.pid;
