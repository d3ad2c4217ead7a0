/**
 * Test runs (issue 30, "Test a flow before publishing it"): the DRAFT walked against a sample,
 * in-process, with the automation's own executors and flow (no second engine), inside ONE
 * transaction that is always rolled back:
 *
 * - the run is started by the run engine in that transaction (chains and lineage as a real
 *   run's), its first step's job with it: both are rolled back, so no job survives;
 * - mail goes to the outbox and SMS to their table in that transaction (rolled back: nothing
 *   sent), the HTTP request is never made (test-mode.ts), record changes are undone;
 * - delays are skipped with a note, a wait goes on as if its event came;
 * - nothing is published on the socket from inside it (the executors write only rows; pushes
 *   are jobs, rolled back too).
 *
 * Each step's result (passed, failed with what to fix, skipped, the branch taken) with its inputs
 * (variables filled) and outputs is kept per automation and person (automation_test_runs), so
 * "Test this step" runs one step again with the outputs the steps before it gave last time.
 */
import type { Transaction } from "kysely";
import {
  type ActionStep,
  type AutomationDefinition,
  type ConditionStep,
  type DelayStep,
  type Step,
  stepNumbers,
  TRIGGER_ID,
  TRIGGER_LABELS,
  type WaitForEventStep,
} from "../../../schemas/automation";
import { publishProblems } from "../../../schemas/automation-checks";
import type { TestRun, TestSample, TestStepResult, WouldSend } from "../../../schemas/automation-test-runs";
import { matches } from "../../../schemas/conditions";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { parsedJson } from "../../db/json";
import { badRequest, conflict } from "../../http/errors";
import type { StepExecutor } from "../../runs";
import { definitionsOf } from "./definitions";
import { automationExecutors } from "./executors";
import { type AutomationStepDef, automationFlow } from "./flow";
import type { AutomationContext, AutomationRun } from "./run-scope";
import { scopeOf } from "./run-scope";
import { markTestRun } from "./test-mode";
import { type SampleStart, sampleFromRecord, sampleFromValues, sampleNoun } from "./test-samples";
import { actionNote, delayNote, fixFor, stepTitle, waitNote } from "./test-words";
import { AUTOMATION_KIND } from "./triggers";
import { conditionRecord, fillVariables, variableValues } from "./variables";

export type {
  TestRun,
  TestSample,
  TestStatus,
  TestStepResult,
  WouldSend,
} from "../../../schemas/automation-test-runs";

type Trx = Transaction<Database>;
type Executor = StepExecutor<AutomationStepDef, AutomationContext>;

/**
 * What a step answered when its shown outputs differ (a mail's: shown as `wouldSend`, without the
 * rolled-back ids): later steps and branches read what a real run's step answers.
 */
const flowOutputs = new WeakMap<TestStepResult, unknown>();
const flowOutputOf = (result: TestStepResult) =>
  flowOutputs.has(result) ? flowOutputs.get(result) : result.outputs;

/** Thrown at the end of every test to roll its transaction back. */
class RollBack extends Error {}

const sampleError = (field: string, message: string) => badRequest(message, [{ field, message }]);

/** The trigger's record and client from the person's sample (400 per field when it cannot be). */
async function startOf(db: Trx, definition: AutomationDefinition, sample: TestSample): Promise<SampleStart> {
  if (sample.kind === "record") {
    if (!sampleNoun(definition.trigger.kind))
      throw sampleError(
        "sample.kind",
        `"${TRIGGER_LABELS[definition.trigger.kind]}" starts runs about no record: fill in its variables instead`,
      );
    if (!sample.id)
      throw sampleError("sample.id", `Choose the ${sampleNoun(definition.trigger.kind)} to test with`);
    const start = await sampleFromRecord(db, definition.trigger, sample.id);
    if (!start)
      throw sampleError("sample.id", `There is no ${sampleNoun(definition.trigger.kind)} with this ID`);
    return start;
  }
  const record = sampleFromValues(sample.values ?? {});
  if (!sample.clientId) return { record, subject: null };
  const client = await db
    .selectFrom("clients")
    .select("id")
    .where("id", "=", sample.clientId)
    .executeTakeFirst();
  if (!client) throw sampleError("sample.clientId", "There is no client with this ID");
  return { record, subject: { type: "client", id: client.id } };
}

/** The texts of an action's inputs with their variables filled (what a failed step worked on). */
async function filledInputs(trx: Trx, run: AutomationRun, step: ActionStep): Promise<unknown> {
  try {
    const values = variableValues(await scopeOf(trx, run));
    const fill = (v: unknown): unknown =>
      typeof v === "string"
        ? fillVariables(v, values)
        : Array.isArray(v)
          ? v.map(fill)
          : v && typeof v === "object"
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]))
            : v;
    return fill(step.inputs);
  } catch {
    // The transaction failed with the step (PostgreSQL refuses statements after an error).
    return step.inputs;
  }
}

/** What a condition read: each leaf's field with its value in this run. */
function conditionInputs(step: ConditionStep, record: Record<string, unknown>) {
  const values: Record<string, unknown> = {};
  const walk = (node: unknown) => {
    const n = node as { field?: string; value?: unknown; operator?: string };
    if (Array.isArray(n.value) && (n.operator === "and" || n.operator === "or")) n.value.forEach(walk);
    else if (n.field) {
      let at: unknown = record;
      for (const part of n.field.split("."))
        at = at && typeof at === "object" ? (at as Record<string, unknown>)[part] : undefined;
      values[n.field] = at ?? null;
    }
  };
  walk(step.condition);
  return { condition: step.condition, values };
}

/** What a sending step would send, from what it worked on. */
function wouldSend(step: ActionStep, input: Record<string, unknown>): WouldSend | null {
  if (step.type === "send_email")
    return { stepId: step.id, channel: "email", to: input.to, subject: input.subject, body: input.body };
  if (step.type === "send_sms") return { stepId: step.id, channel: "sms", to: input.to, body: input.body };
  if (step.type === "http_request")
    return {
      stepId: step.id,
      channel: "http",
      method: input.method,
      url: input.url,
      headers: input.headers,
      body: input.body ?? null,
    };
  return null;
}

export class TestRunner {
  private readonly executors: Record<string, Executor>;

  constructor(private readonly ctx: AppContext) {
    this.executors = automationExecutors(ctx) as Record<string, Executor>;
  }

  /** The person's last test run of the automation, or null. */
  async last(automationId: string, userId: string): Promise<TestRun | null> {
    const row = await this.ctx.db
      .selectFrom("automation_test_runs")
      .select("result")
      .where("automation_id", "=", automationId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row ? parsedJson<TestRun>(row.result) : null;
  }

  /**
   * Tests the draft against `sample` (all of it), or one step of it (`stepId`) with the outputs
   * of the steps before it from the last test; keeps and answers the result.
   */
  async test(
    automationId: string,
    userId: string,
    input: { sample?: TestSample; stepId?: string },
  ): Promise<TestRun> {
    const { draft } = await definitionsOf(this.ctx.db, automationId);
    let previous: TestRun | null = null;
    if (input.stepId) {
      if (!automationFlow.step(draft, input.stepId))
        throw sampleError("stepId", `The draft has no step "${input.stepId}" (deleted since?)`);
      previous = await this.last(automationId, userId);
      if (!previous)
        throw conflict("Test the whole flow first: this step needs the outputs of the steps before it");
    }
    const sample = input.sample ?? previous?.sample;
    if (!sample)
      throw sampleError(
        "sample",
        "Choose a sample to test with: a record, or values for the trigger's variables",
      );

    const result = await this.walk(automationId, userId, draft, sample, input.stepId, previous);
    const stored = JSON.stringify(result);
    await this.ctx.db
      .insertInto("automation_test_runs")
      .values({
        automation_id: automationId,
        user_id: userId,
        sample: JSON.stringify(sample),
        result: stored,
      })
      .onConflict((oc) =>
        oc
          .columns(["automation_id", "user_id"])
          .doUpdateSet({ sample: JSON.stringify(sample), result: stored, updated_at: new Date() }),
      )
      .execute();
    return result;
  }

  private async walk(
    automationId: string,
    userId: string,
    draft: AutomationDefinition,
    sample: TestSample,
    only: string | undefined,
    previous: TestRun | null,
  ): Promise<TestRun> {
    const numbers = stepNumbers(draft.steps);
    const problems = new Map<string, string[]>();
    for (const p of publishProblems(draft))
      if (p.nodeId !== TRIGGER_ID) problems.set(p.nodeId, [...(problems.get(p.nodeId) ?? []), p.message]);
    const steps: TestStepResult[] = [];
    const sent: WouldSend[] = [];
    let outputs: Record<string, unknown> = {};
    if (only && previous) {
      // The outputs of the steps before it in the last test.
      const at = previous.steps.findIndex((s) => s.id === only);
      const before = new Set((at < 0 ? previous.steps : previous.steps.slice(0, at)).map((s) => s.id));
      outputs = Object.fromEntries(Object.entries(previous.outputs).filter(([id]) => before.has(id)));
    }
    try {
      await this.ctx.db.transaction().execute(async (trx) => {
        const start = await startOf(trx, draft, sample);
        const { run: started } = await this.ctx.runs.start<AutomationDefinition, AutomationContext>(trx, {
          kind: AUTOMATION_KIND,
          ownerKey: automationId,
          definition: draft,
          subject: start.subject,
          context: { trigger: draft.trigger.kind, record: start.record, startedBy: userId },
        });
        const run: AutomationRun = { ...started, outputs };
        markTestRun(run, trx);
        if (!only) {
          const fits = matches(start.record, draft.trigger.filter ?? []);
          steps.push({
            id: TRIGGER_ID,
            number: 0,
            title: TRIGGER_LABELS[draft.trigger.kind],
            status: fits ? "passed" : "skipped",
            ...(fits
              ? {}
              : {
                  note: "This sample does not match the trigger's filter: a real event like it would start no run. The steps are tested all the same",
                }),
            inputs: { sample: sample.kind, client: start.subject?.id ?? null },
            outputs: start.record,
          });
        }
        let key = only ?? automationFlow.first(draft);
        while (key) {
          const place = automationFlow.step(draft, key);
          if (!place) break;
          const result = await this.runStep(trx, run, place, numbers.get(key) ?? 0, problems.get(key));
          steps.push(result);
          if (result.status === "failed") break;
          outputs = { ...run.outputs, [key]: flowOutputOf(result) };
          if (only) break;
          run.outputs = outputs;
          const action = place.step.kind === "action" ? (place.step as ActionStep) : null;
          const send =
            action && result.status === "passed"
              ? wouldSend(action, result.inputs as Record<string, unknown>)
              : null;
          if (send) sent.push(send);
          key = automationFlow.next(draft, key, flowOutputOf(result));
        }
        if (only && steps[0]?.status !== "failed") {
          const step = automationFlow.step(draft, only)?.step;
          const send =
            step?.kind === "action" && steps[0].status === "passed"
              ? wouldSend(step, steps[0].inputs as Record<string, unknown>)
              : null;
          if (send) sent.push(send);
        }
        throw new RollBack();
      });
    } catch (error) {
      if (!(error instanceof RollBack)) throw error;
    }
    const testedAt = new Date().toISOString();
    if (!only || !previous) return { sample, steps, sent, outputs, testedAt };
    // One step again: the last test with this step's result in its place.
    const mine = steps[0];
    const merged = previous.steps.some((s) => s.id === only)
      ? previous.steps.map((s) => (s.id === only ? mine : s))
      : [...previous.steps, mine];
    return {
      sample,
      steps: merged,
      sent: [...previous.sent.filter((s) => s.stepId !== only), ...sent],
      outputs: { ...previous.outputs, ...outputs },
      testedAt,
      stepId: only,
    };
  }

  /** One step in the test's transaction: its result, never a throw. */
  private async runStep(
    trx: Trx,
    run: AutomationRun,
    place: AutomationStepDef,
    number: number,
    problems: string[] | undefined,
  ): Promise<TestStepResult> {
    const step: Step = place.step;
    const base = { id: step.id, number, title: stepTitle(step) };
    if (problems?.length) {
      const error = "This step is not finished";
      return {
        ...base,
        status: "failed",
        inputs: step.kind === "action" ? step.inputs : {},
        outputs: null,
        error,
        fix: problems.join(" "),
      };
    }
    const executor = this.executors[place.type];
    if (!executor) {
      const error = `No step can do "${place.type}"`;
      return { ...base, status: "failed", inputs: {}, outputs: null, error, fix: fixFor(error) };
    }
    const { run: execute, prepare } =
      typeof executor === "function" ? { run: executor, prepare: undefined } : executor;
    const context = {
      run,
      key: step.id,
      step: place,
      attempt: 1,
      idempotencyKey: `run:${run.id}:${step.id}`,
      signal: new AbortController().signal,
    };
    try {
      const prepared = prepare ? await prepare(context) : undefined;
      const outcome = (await execute({ ...context, trx, prepared })) ?? {};
      const inputs =
        step.kind === "condition"
          ? conditionInputs(step, conditionRecord(await scopeOf(trx, run)))
          : (outcome.input ?? {});
      const output = (outcome.output ?? null) as Record<string, unknown> | null;
      switch (step.kind) {
        case "condition":
          return { ...base, status: "branch", branch: String(output?.branch), inputs, outputs: output };
        case "delay":
          return { ...base, status: "skipped", note: delayNote(step as DelayStep), inputs, outputs: output };
        case "wait": {
          const w = step as WaitForEventStep;
          const resumed = { resumedBy: "event", event: w.event, data: null };
          return { ...base, status: "skipped", branch: "event", note: waitNote(w), inputs, outputs: resumed };
        }
        default: {
          const note = actionNote(step as ActionStep, output ?? {});
          // Sent in a transaction rolled back: it would be sent, and the ids it got are no one's.
          if (output && typeof output.sent === "string") {
            const { sent: channel, messageId: _m, outboxId: _o, smsId: _s, status: _st, ...rest } = output;
            const result: TestStepResult = {
              ...base,
              status: "passed",
              ...(note ? { note } : {}),
              inputs,
              outputs: { wouldSend: channel, ...rest },
            };
            flowOutputs.set(result, output);
            return result;
          }
          const skipped = typeof output?.skipped === "string";
          return {
            ...base,
            status: skipped ? "skipped" : "passed",
            ...(note ? { note } : {}),
            inputs,
            outputs: output,
          };
        }
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const inputs = step.kind === "action" ? await filledInputs(trx, run, step) : {};
      return { ...base, status: "failed", inputs, outputs: null, error: message, fix: fixFor(message) };
    }
  }
}
