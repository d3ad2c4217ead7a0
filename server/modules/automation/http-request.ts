/**
 * An automation's HTTP request (issue 17): the one step with outside work, made in `prepare`
 * before the step's transaction, through the outbound client (private and loopback targets
 * refused unless configured), with the step's idempotency key as `Idempotency-Key` (the same on
 * every attempt). 5xx, 429 and network failures are tried again; a 4xx or a refused target fails
 * the step at once. The response (status, content type, body: JSON when it parses) is the step's
 * output for later steps.
 */
import type { ActionStep } from "../../../schemas/automation";
import type { AppContext } from "../../context";
import { OutboundRefused, outboundCall, outboundProblem } from "../../http/outbound";
import { PermanentStepError, type StepOutcome } from "../../runs";
import { type AutomationExecutor as Executor, scopeOf } from "./run-scope";
import { testRunTrx } from "./test-mode";
import { fillVariables, variableValues } from "./variables";

export function httpRequestExecutor(ctx: AppContext): Executor {
  interface HttpPrepared {
    request: { method: string; url: string; headers: Record<string, string>; body?: string };
    response: { status: number | null; headers: Record<string, unknown>; body: unknown; notSent?: string };
  }

  const http_request: Executor = {
    async prepare({ run, step: { step }, idempotencyKey, signal }): Promise<HttpPrepared> {
      const { inputs } = step as ActionStep;
      // A test run: its values as its transaction sees them, and nothing sent (test-mode.ts).
      const testTrx = testRunTrx(run);
      const values = variableValues(await scopeOf(testTrx ?? ctx.db, run));
      const url = fillVariables(inputs.url ?? "", values).trim();
      const method = inputs.method ?? "GET";
      const headers: Record<string, string> = { "idempotency-key": idempotencyKey };
      for (const h of inputs.headers ?? []) headers[h.name.toLowerCase()] = fillVariables(h.value, values);
      const body = inputs.body?.trim() ? fillVariables(inputs.body, values) : undefined;
      if (body !== undefined) headers["content-type"] ??= "application/json";
      if (testTrx) {
        // Checked as the outbound client would, without calling it.
        const problem = await outboundProblem(url, ctx.config.outboundAllowPrivate);
        if (problem) throw new PermanentStepError(`${url || "The URL"}: the URL ${problem}`);
        return {
          request: { method, url, headers, body },
          response: {
            status: null,
            headers: {},
            body: null,
            notSent: "A test run does not send the request",
          },
        };
      }
      if (signal.aborted) throw new Error("The app is stopping");
      let answer: Awaited<ReturnType<typeof outboundCall>>;
      try {
        answer = await outboundCall(
          url,
          { method, headers, body },
          { allowPrivate: ctx.config.outboundAllowPrivate },
        );
      } catch (error) {
        if (error instanceof OutboundRefused || error instanceof TypeError)
          throw new PermanentStepError(`${url}: ${(error as Error).message}`);
        throw error;
      }
      const message = `${method} ${url} answered ${answer.status}`;
      if (answer.status >= 500 || answer.status === 429) throw new Error(message);
      if (answer.status >= 400) throw new PermanentStepError(message);
      let parsed: unknown = answer.body;
      try {
        parsed = answer.body ? JSON.parse(answer.body) : null;
      } catch {}
      return {
        request: { method, url, headers, body },
        response: {
          status: answer.status,
          headers: { "content-type": answer.headers["content-type"] ?? null },
          body: parsed,
        },
      };
    },
    run: ({ prepared }): StepOutcome => {
      const p = prepared as HttpPrepared;
      return { input: p.request, output: p.response };
    },
  };

  return http_request;
}
