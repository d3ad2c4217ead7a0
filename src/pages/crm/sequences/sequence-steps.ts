/**
 * The builder's rules for a sequence's steps, pure so they are tested without a browser: a new
 * step of each type with a key of its own, moving one, the problems of each step (the same
 * checks as the server's), and how an enrolment's place and an enrolment answer read.
 */
import {
  type Enrolment,
  type EnrolResult,
  type SequenceStep,
  type SequenceStepType,
  STEP_TYPE_LABELS,
  stepLabel,
  stepProblems,
} from "../../../../schemas/crm-sequence-steps";

const KEY_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A key no step of `steps` has: `s-` and six letters or digits. */
export function newStepKey(steps: readonly SequenceStep[], random: () => number = Math.random): string {
  const taken = new Set(steps.map((s) => s.key));
  for (;;) {
    let key = "s-";
    for (let i = 0; i < 6; i++) key += KEY_CHARS[Math.floor(random() * KEY_CHARS.length)];
    if (!taken.has(key)) return key;
  }
}

/** A step of `type` as the builder adds it: a wait of one day, a task due in a day for the owner. */
export function newStep(type: SequenceStepType, steps: readonly SequenceStep[]): SequenceStep {
  const key = newStepKey(steps);
  switch (type) {
    case "email":
      return { key, type, subject: "", body: "" };
    case "sms":
      return { key, type, body: "" };
    case "wait":
      return { key, type, amount: 1, unit: "days" };
    case "task":
      return { key, type, title: "", dueInDays: 1, assignee: "owner", assigneeId: null };
  }
}

/** The steps with the one at `from` moved to `to`. */
export function moveStep(steps: readonly SequenceStep[], from: number, to: number): SequenceStep[] {
  const next = [...steps];
  const [moved] = next.splice(from, 1);
  if (moved) next.splice(Math.max(0, Math.min(to, next.length)), 0, moved);
  return next;
}

/** A step's name in messages and announcements: its label, or what it still needs. */
export function stepTitle(step: SequenceStep): string {
  if (step.type === "email" && !step.subject.trim()) return "Email: (no subject yet)";
  if (step.type === "sms" && !step.body.trim()) return "SMS: (no message yet)";
  if (step.type === "task" && !step.title.trim()) return "Task: (no title yet)";
  return stepLabel(step);
}

/** A step's line on its card, under which its type is written: what it sends or asks. */
export function stepSummary(step: SequenceStep): string {
  const title = stepTitle(step);
  return step.type === "wait" ? title : title.slice(title.indexOf(": ") + 2);
}

/**
 * Problems by step key, then by field: the builder's own checks, and those a refused save
 * answered (`steps.<index>.<field>`), read against the steps as they were sent.
 */
export function problemsByStep(
  steps: readonly SequenceStep[],
  answered: ReadonlyArray<{ field: string; message: string }> = [],
): Map<string, Map<string, string[]>> {
  const byStep = new Map<string, Map<string, string[]>>();
  for (const p of [...stepProblems(steps), ...answered]) {
    const [, index, field = "type"] = p.field.split(".");
    const step = steps[Number(index)];
    if (!step) continue;
    const fields = byStep.get(step.key) ?? new Map<string, string[]>();
    // "Step 2 (Email): Subject is required" reads "Subject is required" beside its field.
    const message = p.message.replace(/^Step \d+( \([^)]*\))?: /, "");
    const list = fields.get(field) ?? [];
    if (!list.includes(message)) list.push(message);
    fields.set(field, list);
    byStep.set(step.key, fields);
  }
  return byStep;
}

/** Where an enrolment is, in words: "Step 2 of 4 · Wait 2 days", "Finished". */
export function enrolmentPlace(e: Pick<Enrolment, "step" | "status">): string {
  if (!e.step) return e.status === "finished" ? "Finished" : "—";
  return `Step ${e.step.index + 1} of ${e.step.count} · ${e.step.label}`;
}

/** What an enrolment answer says, in a sentence for the toast. */
export function enrolSummary(result: EnrolResult, sequenceName: string): string {
  const n = result.enrolled.length;
  const parts = [
    n === 0
      ? "No client was enrolled"
      : `${n === 1 ? "1 client" : `${n} clients`} enrolled in ${sequenceName}`,
  ];
  const already = result.alreadyActive.length;
  if (already) parts.push(`${already === 1 ? "1 was" : `${already} were`} in it already`);
  const missing = result.notFound.length;
  if (missing) parts.push(missing === 1 ? "1 no longer exists" : `${missing} no longer exist`);
  return parts.join("; ");
}

export const STEP_TYPES_IN_MENU: ReadonlyArray<{ type: SequenceStepType; label: string }> = (
  ["email", "sms", "wait", "task"] as const
).map((type) => ({ type, label: STEP_TYPE_LABELS[type] }));
