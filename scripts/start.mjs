/**
 * `npm start`: builds the SPA when dist/client is missing or older than its sources, then runs
 * the server, forwarding SIGINT/SIGTERM/SIGHUP and exiting with the server's code.
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { root, runViteBuild, spaBuildReason } from "./spa-build.mjs";

const reason = spaBuildReason();
if (reason) {
  console.log(`Building the admin app (${reason})…`);
  const code = runViteBuild();
  if (code !== 0) {
    console.error("vite build failed; the server was not started.");
    process.exit(code);
  }
}

// The server gets its own process group so a Ctrl-C reaches it once, through us, not twice.
const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
  cwd: root,
  stdio: ["ignore", "inherit", "inherit"],
  detached: true,
});

let lastSignal = { name: "", at: 0 };
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    // npm and the terminal may both deliver the same Ctrl-C; pass it on once.
    const now = Date.now();
    if (lastSignal.name === signal && now - lastSignal.at < 500) return;
    lastSignal = { name: signal, at: now };
    if (server.exitCode === null && server.signalCode === null) server.kill(signal);
  });
}
// Should we exit for any other reason, do not leave the server running on its own.
process.on("exit", () => {
  if (server.exitCode === null && server.signalCode === null) server.kill("SIGTERM");
});

server.on("error", (error) => {
  console.error(`Could not start the server: ${error.message}`);
  process.exitCode = 1;
});
server.on("exit", (code, signal) => {
  process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
});
