/**
 * The durable run/step engine (issue 16's sequences, issue 17's automations; docs/runs.md):
 * a run is a definition's steps as data, each step a job on the durable queue, a wait a job
 * due later, an exit a condition checked before each step or an event that ends the run. A
 * restart never loses or doubles a step.
 *
 * @example
 * ctx.runs.registerKind("sequence", { flow: linearFlow, executors: { email, wait, sms, task } });
 * const { run } = await ctx.runs.start(trx, { kind: "sequence", ownerKey: id, definition, subject });
 * await ctx.runs.exit(trx, { subject: { type: "client", id }, reason: "replied" });
 */
export {
  DELAY_UNITS,
  type Delay,
  type DelayUnit,
  delayEnd,
  delayProblem,
  isTimeZone,
  untilInstant,
} from "../../src/lib/delays";
export type {
  Db,
  ExitInput,
  ListRunsQuery,
  ResumeOutput,
  RetryPolicy,
  Run,
  RunCounts,
  RunEngine,
  RunFlow,
  RunKind,
  RunStatus,
  RunStep,
  RunSubject,
  RunsMoved,
  RunWithSteps,
  SignalInput,
  StartInput,
  StartResult,
  StepContext,
  StepContextBase,
  StepDefinition,
  StepExecutor,
  StepOutcome,
  StepStatus,
  SubjectRead,
} from "./contract";
export { ACTIVE_STATUSES, RUN_STATUSES } from "./contract";
export { DEFAULT_RETRY, MAX_RUN_DEPTH, STEP_JOB_ATTEMPTS } from "./core";
export { createRunEngine, type RunEngineOptions } from "./engine";
export { PermanentStepError, RunChainError } from "./errors";
export { FEED_EVERY_MS, FEED_JOB, FEED_LOOKBACK_MS } from "./feed";
export { type LinearDefinition, type LinearStep, linearFlow, linearFlowOf } from "./flows";
