/**
 * The run engine's walk of an automation (docs/runs.md, "Flow"): steps follow each other in
 * their list; a condition goes on with its yes or no branch by its output `{ branch }`, a wait
 * for an event with its event or timeout branch by the engine's `{ resumedBy }`; a list that
 * ends ends the run (branches never join again). A step's key is its id.
 */
import {
  type AutomationDefinition,
  type Branch,
  type BranchingStep,
  branchesOf,
  branchSteps,
  isBranching,
  type Step,
} from "../../../schemas/automation";
import type { RunFlow, StepDefinition } from "../../runs";

/** A step as the engine sees it: `type` picks the executor (a step kind, or an action's type). */
export interface AutomationStepDef extends StepDefinition {
  step: Step;
}

interface Place {
  step: Step;
  /** The step after it in its list, or null at a list's end. */
  after: string | null;
}

const indexes = new WeakMap<AutomationDefinition, Map<string, Place>>();

function indexOf(definition: AutomationDefinition): Map<string, Place> {
  let index = indexes.get(definition);
  if (index) return index;
  index = new Map();
  const walk = (steps: readonly Step[]) =>
    steps.forEach((step, i) => {
      (index as Map<string, Place>).set(step.id, { step, after: steps[i + 1]?.id ?? null });
      for (const b of branchesOf(step)) walk(branchSteps(step as BranchingStep, b));
    });
  walk(definition.steps);
  indexes.set(definition, index);
  return index;
}

/** The executor a step runs with: its kind, or an action's type. */
export const executorOf = (step: Step): string =>
  step.kind === "action" ? (step.type ?? "action") : step.kind;

/** The branch a branching step's output chose. */
export function branchOf(step: BranchingStep, output: unknown): Branch {
  const o = (output ?? {}) as { branch?: string; resumedBy?: string };
  if (step.kind === "condition") return o.branch === "yes" ? "yes" : "no";
  return o.resumedBy === "event" ? "event" : "timeout";
}

export const automationFlow: RunFlow<AutomationDefinition, AutomationStepDef> = {
  first: (definition) => definition.steps[0]?.id ?? null,
  next(definition, key, output) {
    const place = indexOf(definition).get(key);
    if (!place) return null;
    if (isBranching(place.step)) return branchSteps(place.step, branchOf(place.step, output))[0]?.id ?? null;
    return place.after;
  },
  step(definition, key) {
    const place = indexOf(definition).get(key);
    return place ? { type: executorOf(place.step), step: place.step } : undefined;
  },
};
