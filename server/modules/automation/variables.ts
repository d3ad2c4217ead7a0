/**
 * Variables of an automation's texts (issue 17): `{{trigger.<field>}}` (the record that started
 * the run), `{{client.<field>}}` (the run's client, with the CRM's merge fields such as
 * `client.first_name`), `{{steps.<step id>.<field>}}` (an earlier step's output: an HTTP
 * response's `status` and `body`, a created record's `id`). Filled by the CRM's one merge-field
 * renderer (schemas/merge-fields.ts) from a flat map of the run's values; a variable the run
 * has no value for reads empty (or its fallback: `{{client.first_name | there}}`).
 *
 * Conditions read the same values (`matches` over `scope`): a field without a prefix is the
 * trigger record's (`score`), and `steps.<id>.…` / `client.…` reach the rest.
 */
import { mergeFieldsIn, mergeValuesOf, renderMergeFields } from "../../../schemas/merge-fields";

export interface RunScope {
  trigger: Record<string, unknown>;
  client: Record<string, unknown> | null;
  steps: Record<string, unknown>;
}

/** Deepest nesting a variable reaches (`steps.call.body.a.b.c.d`: six below its root). */
const MAX_DEPTH = 6;

const asText = (value: unknown): string | null => {
  if (value === null || value === undefined || value === "") return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
};

/** A run's variables: the text of each dotted key, undefined for one the run has no value for. */
export type VariableValues = (key: string) => string | null | undefined;

/**
 * The value under a dotted path inside `value` (objects and lists as JSON too). A key with dots
 * of its own (a custom field `a.b`) is found whole before it is walked into.
 */
function valueAt(value: unknown, path: readonly string[], depth: number): { found: unknown } | undefined {
  if (path.length === 0) return { found: value };
  if (depth >= MAX_DEPTH || value === null || typeof value !== "object" || value instanceof Date)
    return undefined;
  const record = value as Record<string, unknown>;
  const whole = path.join(".");
  if (path.length > 1 && Object.hasOwn(record, whole)) return { found: record[whole] };
  if (!Object.hasOwn(record, path[0])) return undefined;
  return valueAt(record[path[0]], path.slice(1), depth + 1);
}

/**
 * The values the texts of a run are filled with, read when a text asks for them: a run's
 * texts name a few variables, and making every value of its trigger, client and steps into
 * text for each action was most of an action's own work.
 */
export function variableValues(scope: RunScope): VariableValues {
  let merge: Record<string, string | null> | undefined;
  const { client } = scope;
  return (key) => {
    const [root, ...path] = key.split(".");
    if (root === "client" && client) {
      merge ??= mergeValuesOf(
        {
          name: String(client.name ?? ""),
          email: client.email as string | null,
          phone: client.phone as string | null,
          company: client.company as string | null,
          job_title: client.job_title as string | null,
          custom: (client.custom as Record<string, unknown> | null) ?? null,
        },
        null,
      );
      if (Object.hasOwn(merge, key)) return merge[key];
    }
    const top =
      root === "trigger"
        ? scope.trigger
        : root === "steps"
          ? scope.steps
          : root === "client"
            ? client
            : undefined;
    if (top === undefined || top === null) return undefined;
    const at = valueAt(top, path, 0);
    return at ? asText(at.found) : undefined;
  };
}

/**
 * A text with its variables filled; unknown ones read empty.
 *
 * @example
 * fillVariables("Hi {{client.first_name}}", variableValues(scope)); // "Hi Asha"
 */
export function fillVariables(template: string, values: VariableValues): string {
  const known: Record<string, string | null> = {};
  for (const key of mergeFieldsIn(template)) {
    const value = values(key);
    if (value !== undefined) known[key] = value;
  }
  return renderMergeFields(template, known).replace(
    /\{\{\s*[A-Za-z_][\w.-]*\s*(?:\|([^{}]*))?\}\}/g,
    (_m, fallback?: string) => fallback?.trim() ?? "",
  );
}

/** What a condition is evaluated over: the trigger's record, plus `trigger`, `client`, `steps`. */
export const conditionRecord = (scope: RunScope): Record<string, unknown> => ({
  ...scope.trigger,
  trigger: scope.trigger,
  client: scope.client ?? undefined,
  steps: scope.steps,
});
