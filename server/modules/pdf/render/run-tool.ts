/**
 * Runs a poppler command line tool with a deadline: the child is killed (SIGKILL) when it
 * stays silent for `idleMs` or when `signal` aborts, so a malicious or broken PDF cannot hold
 * a job forever. Poppler's exit status and messages become a `PdfError`. The tool is started by
 * the tool host (tool-host.ts), not forked from this large process.
 */
import { PdfError } from "./pdf-error";
import { hostSpawn } from "./tool-host";

export interface RunToolOptions {
  /** Kill the tool after this long without output on stdout or stderr. */
  idleMs: number;
  signal?: AbortSignal;
  /** Each complete stderr line, as it comes (pdftoppm -progress reports pages there). */
  onStderrLine?: (line: string) => void;
  /** Keep stdout (pdfinfo, pdftotext); otherwise it is ignored. */
  stdout?: boolean;
}

export interface ToolResult {
  stdout: string;
  stderr: string;
}

/** Stderr kept (the end) for the error message: poppler may print thousands of syntax errors. */
const STDERR_KEEP = 16 * 1024;

/** Lines of a tool's stderr kept as the error's detail. */
const DETAIL_LINES = 5;

/** Poppler's exit codes: 1 the PDF could not be opened, 3 a permission was refused. */
export function popplerError(tool: string, exitCode: number | null, stderr: string): Error {
  const lines = stderr.split("\n").filter((line) => line.trim() && !/^\d+ \d+ /.test(line));
  if (/wrong page range/i.test(stderr)) return new RangeError(`${tool}: ${lines.at(-1)}`);
  // A file we could not open or write is our problem, not the PDF's.
  if (/I\/O Error/.test(stderr))
    return new Error(`${tool}: ${lines.find((line) => /I\/O Error/.test(line))}`);
  // The tool's own words, for the detail line: its last messages are the ones that made it give
  // up ("Couldn't read xref table"), after possibly thousands of syntax errors.
  const said = lines.length ? `${tool}: ${lines.slice(-DETAIL_LINES).join("\n")}` : undefined;
  if (/incorrect password|permission error/i.test(stderr)) return new PdfError("encrypted", said);
  if (exitCode === 1 || exitCode === 3 || exitCode === null || exitCode >= 99) {
    return new PdfError(
      "corrupt",
      said ?? (exitCode === null ? `${tool} crashed` : `${tool} exited with code ${exitCode}`),
    );
  }
  return new Error(`${tool} failed with exit code ${exitCode}: ${lines.slice(-3).join(" / ")}`);
}

export function runTool(tool: string, args: string[], options: RunToolOptions): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(options.signal.reason);
    const child = hostSpawn(tool, args, { stdout: options.stdout === true });
    const out: Buffer[] = [];
    let stderr = "";
    let partial = "";
    let failure: unknown;
    let timer: NodeJS.Timeout | undefined;
    const kill = (reason: unknown) => {
      failure ??= reason;
      child.kill("SIGKILL");
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => kill(new PdfError("timeout", `${tool} silent for ${Math.round(options.idleMs / 1000)} s`)),
        options.idleMs,
      );
    };
    const onAbort = () => kill(options.signal?.reason);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    arm();
    child.stdout?.on("data", (chunk: Buffer) => {
      out.push(chunk);
      arm();
    });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      arm();
      stderr = (stderr + chunk).slice(-STDERR_KEEP);
      if (!options.onStderrLine) return;
      const lines = (partial + chunk).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) options.onStderrLine(line);
    });
    let settled = false;
    const settle = (error: unknown, result?: ToolResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (error === undefined) resolve(result!);
      else reject(error);
    };
    child.on("error", (error: Error) => {
      // Not started at all (ENOENT): no "close" may follow.
      if (child.pid === undefined) settle(error);
      else kill(error);
    });
    child.on("close", (code: number | null, killedBy: NodeJS.Signals | null) => {
      if (partial && options.onStderrLine) options.onStderrLine(partial);
      if (failure !== undefined) return settle(failure);
      if (code !== 0) return settle(popplerError(tool, killedBy ? null : code, stderr));
      settle(undefined, { stdout: Buffer.concat(out).toString("utf8"), stderr });
    });
  });
}
