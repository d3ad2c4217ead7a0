/** Errors a module meets when it uses the run engine. */

/**
 * Thrown by a step executor: the step fails at once, without its remaining attempts (the
 * client opted out of SMS, the endpoint answered 400). Its message is what the history shows.
 */
export class PermanentStepError extends Error {
  override name = "PermanentStepError";
}

/**
 * start() refused a run caused by another run: the chain is deeper than the engine allows
 * ('depth'), or the same owner is already up the chain ('loop': an automation's own action
 * must not trigger that automation again).
 */
export class RunChainError extends Error {
  override name = "RunChainError";
  constructor(
    readonly reason: "depth" | "loop",
    message: string,
  ) {
    super(message);
  }
}

/** Wraps what an executor threw, to tell it from a database failure around it. */
export class StepAttemptError extends Error {
  override name = "StepAttemptError";
  constructor(readonly error: unknown) {
    super(error instanceof Error ? error.message : String(error));
  }
}
