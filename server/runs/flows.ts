/**
 * Ready-made flows. A linear definition (a sequence: email, wait, SMS, task) is a list of steps
 * run in order; a kind that branches (automation's conditions) writes its own RunFlow.
 */
import type { RunFlow, StepDefinition } from "./contract";

/** A step of a linear definition: its key is unique within the definition. */
export interface LinearStep extends StepDefinition {
  key: string;
}

export interface LinearDefinition<S extends LinearStep = LinearStep> {
  steps: S[];
}

/**
 * Steps in the order listed; the run finishes after the last one.
 *
 * @example
 * ctx.runs.registerKind("sequence", { flow: linearFlow, executors: { ... } });
 */
export const linearFlow: RunFlow<LinearDefinition, LinearStep> = {
  first: (definition) => definition.steps[0]?.key ?? null,
  next(definition, key) {
    const index = definition.steps.findIndex((s) => s.key === key);
    return index < 0 ? null : (definition.steps[index + 1]?.key ?? null);
  },
  step: (definition, key) => definition.steps.find((s) => s.key === key),
};

/** linearFlow for a kind whose steps carry more than a key and a type. */
export function linearFlowOf<S extends LinearStep>(): RunFlow<LinearDefinition<S>, S> {
  return linearFlow as unknown as RunFlow<LinearDefinition<S>, S>;
}
