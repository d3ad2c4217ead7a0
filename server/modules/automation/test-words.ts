/**
 * The words of a test run (issue 30): what a failed step's person should change ("fix"), and the
 * notes of steps a test does not carry out (a delay it skips, a wait it treats as answered, a
 * mail it records instead of sending, a record change it undoes). Pure: unit-testable.
 */
import {
  ACTION_LABELS,
  type ActionStep,
  type DelayStep,
  STEP_KIND_LABELS,
  type Step,
  WAIT_EVENT_LABELS,
  type WaitForEventStep,
} from "../../../schemas/automation";

/** What to change when a step failed with `error`, by the executors' messages (executors.ts, record-actions.ts, http-request.ts). */
const FIXES: ReadonlyArray<[RegExp, string]> = [
  [
    /email has no address/,
    "Set To to an email address, or to a variable this sample fills ({{client.email}} needs a client with an email).",
  ],
  [/must be one email address/, "To must fill to exactly one email address: check the variable it uses."],
  [
    /subject or message is empty/,
    "Write a subject and a message, or check that their variables have values in this sample.",
  ],
  [
    /SMS goes to the run's client|tag is added to the run's client|Only a client can be enrolled/,
    "Pick a sample about a client: this step works on the run's client.",
  ],
  [
    /SMS has no number or no text/,
    "Fill To and the message; {{client.phone}} needs a client with a phone number.",
  ],
  [/tag is empty/, "Write the tag, or check that its variable has a value in this sample."],
  [/is not a number/, "Make the field's value a number, or a variable that holds one."],
  [/has no field/, "Remove that field: the record has no such field an automation can set."],
  [
    /is not the ID of a record/,
    "Set Record to a record's ID, with a variable such as {{client.id}} or {{steps.<step>.id}}.",
  ],
  [/does not exist/, "The record is gone: pick another sample, or another record ID."],
  [/names no sequence|sequence/i, "Choose a sequence that still exists and has steps."],
  [/the URL /, "Use a full public address (https://…): private and local addresses are refused."],
  [/names no event/, "Choose the event to wait for."],
];

const GENERIC_FIX =
  "Change this step's settings in the sidebar so it can run with this sample, then test it again.";

/** What a person should change after a step failed with `error`. */
export function fixFor(error: string): string {
  return FIXES.find(([pattern]) => pattern.test(error))?.[1] ?? GENERIC_FIX;
}

/** How the canvas names a step: its name, else what it does, else its kind. */
export const stepTitle = (step: Step): string =>
  step.name ||
  (step.kind === "action" && step.type && ACTION_LABELS[step.type]) ||
  STEP_KIND_LABELS[step.kind];

const amountOf = (amount: number | undefined, unit: string | undefined) => {
  const n = amount ?? 1;
  const word = (unit ?? "days").replace(/s$/, "");
  return `${n} ${word}${n === 1 ? "" : "s"}`;
};

/**
 * The note of a delay a test skips.
 *
 * @example
 * delayNote({ id: "d", kind: "delay", mode: "for", amount: 2, unit: "days" }); // "Would wait 2 days"
 */
export function delayNote(step: DelayStep): string {
  if (step.mode === "until")
    return `Would wait until ${(step.until ?? "").replace("T", " ")} (${step.timeZone ?? "UTC"})`;
  return `Would wait ${amountOf(step.amount, step.unit)}`;
}

/** The note of a wait a test treats as answered at once. */
export function waitNote(step: WaitForEventStep): string {
  const event = step.event ? `"${WAIT_EVENT_LABELS[step.event]}"` : "the event";
  return `Would wait up to ${amountOf(step.timeout.amount, step.timeout.unit)} for ${event}: tested as if it happened (Event branch)`;
}

/** The note of an action whose effect a test records or undoes, or undefined. */
export function actionNote(step: ActionStep, output: Record<string, unknown>): string | undefined {
  if (typeof output.skipped === "string") return `A real run would skip it: ${output.skipped}`;
  switch (step.type) {
    case "send_email":
      return "Not sent: below is the email a real run would send";
    case "send_sms":
      return "Not sent: below is the SMS a real run would send";
    case "http_request":
      return "Not sent: below is the request a real run would send";
    case "create_record":
      return "Not kept: the record is removed again at the end of the test";
    case "update_record":
    case "add_tag":
    case "enrol_in_sequence":
      return "Not kept: the change is undone at the end of the test";
    default:
      return undefined;
  }
}
