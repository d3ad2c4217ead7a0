/**
 * A real nginx (Debian's package) in front of test instances, running the configuration that
 * docs/deployment.md gives for production: the test reads that block from the document, so
 * the document cannot drift from what is tested. nginx runs in the foreground as a child
 * process on a free loopback port, with its config, pid, logs and temp folders in a temp dir.
 *
 * @example
 * const nginx = await startNginx([8081, 8082]);
 * await fetch(`${nginx.url}/api/health`);
 * await nginx.stop();
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, GiveUp, waitFor } from "./child-server";

const ROOT = path.resolve(__dirname, "../..");

/** The nginx binary, or null when it is not installed. */
export function findNginx(): string | null {
  for (const candidate of ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** The ```nginx block of docs/deployment.md, pointed at `ports` and listening on loopback `listen`. */
export function documentedConfig(ports: readonly number[], listen: number): string {
  const doc = readFileSync(path.join(ROOT, "docs/deployment.md"), "utf8");
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error("docs/deployment.md has no ```nginx block");
  // Each upstream lists the documented example's two servers: one line per test instance instead.
  const upstreamLine = /^(\s*)server 127\.0\.0\.1:8081( [^;]*)?;\n\s*server 127\.0\.0\.1:8082[^;]*;\n/gm;
  const config = block
    .replace(upstreamLine, (_m, indent: string, params = "") =>
      ports.map((port) => `${indent}server 127.0.0.1:${port}${params};\n`).join(""),
    )
    .replace(/^(\s*)listen 80;/m, `$1listen 127.0.0.1:${listen};`);
  if (!config.includes(`listen 127.0.0.1:${listen};`) || !config.includes(`127.0.0.1:${ports[0]}`)) {
    throw new Error("docs/deployment.md's nginx block no longer has the expected listen/server lines");
  }
  return config;
}

export interface RunningNginx {
  url: string;
  child: ChildProcess;
  /** Everything nginx wrote to stderr and its error log. */
  output(): string;
  stop(): Promise<void>;
}

export async function startNginx(ports: readonly number[]): Promise<RunningNginx> {
  const bin = findNginx();
  if (!bin) throw new Error("nginx is not installed (apt-get install nginx)");
  const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-nginx-"));
  for (const sub of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(path.join(dir, sub));
  const port = await freePort();
  const isRoot = process.getuid?.() === 0;
  const main = [
    // As root the workers would drop to `nobody`, who cannot enter the private temp dir.
    isRoot ? "user root;" : "",
    "daemon off;",
    "worker_processes 1;",
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    "events { worker_connections 512; }",
    "http {",
    "  access_log off;",
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${dir}/${t};`),
    documentedConfig(ports, port),
    "}",
  ].join("\n");
  const configFile = path.join(dir, "nginx.conf");
  writeFileSync(configFile, main);
  // -e: the error log before the config is read, which otherwise is a root-owned system path.
  const child = spawn(bin, ["-p", dir, "-c", configFile, "-e", path.join(dir, "error.log")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  child.stdout?.resume();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const output = () => {
    const log = existsSync(path.join(dir, "error.log"))
      ? readFileSync(path.join(dir, "error.log"), "utf8")
      : "";
    return `${stderr}${log}`;
  };
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      "nginx to listen",
      async () => {
        if (child.exitCode !== null) throw new GiveUp(`nginx exited: ${output()}`);
        const res = await fetch(`${url}/api/health`);
        await res.body?.cancel();
        return res.status === 200;
      },
      30_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, child, output, stop };
}
