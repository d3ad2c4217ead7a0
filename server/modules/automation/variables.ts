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
import { mergeValuesOf, renderMergeFields } from "../../../schemas/merge-fields";

export interface RunScope {
  trigger: Record<string, unknown>;
  client: Record<string, unknown> | null;
  steps: Record<string, unknown>;
}

/** Deepest nesting and most values flattened (an HTTP body may be large). */
const MAX_DEPTH = 6;
const MAX_VALUES = 5000;

const asText = (value: unknown): string | null => {
  if (value === null || value === undefined || value === "") return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
};

/** Flat values, and how many (counted as they come: counting the keys each time is quadratic). */
interface Flat {
  values: Record<string, string | null>;
  count: number;
}

/** Every value of `value` under its dotted key (objects and lists as JSON too). */
function flatten(prefix: string, value: unknown, out: Flat, depth = 0): void {
  if (out.count >= MAX_VALUES) return;
  if (!(prefix in out.values)) out.count++;
  out.values[prefix] = asText(value);
  if (depth >= MAX_DEPTH || value === null || typeof value !== "object" || value instanceof Date) return;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>))
    flatten(`${prefix}.${key}`, inner, out, depth + 1);
}

/** The flat values the texts of a run are filled with. */
export function variableValues(scope: RunScope): Record<string, string | null> {
  const flat: Flat = { values: {}, count: 0 };
  const { values } = flat;
  flatten("trigger", scope.trigger, flat);
  flatten("steps", scope.steps, flat);
  if (scope.client) {
    flatten("client", scope.client, flat);
    Object.assign(
      values,
      mergeValuesOf(
        {
          name: String(scope.client.name ?? ""),
          email: scope.client.email as string | null,
          phone: scope.client.phone as string | null,
          company: scope.client.company as string | null,
          job_title: scope.client.job_title as string | null,
          custom: (scope.client.custom as Record<string, unknown> | null) ?? null,
        },
        null,
      ),
    );
  }
  return values;
}

/**
 * A text with its variables filled; unknown ones read empty.
 *
 * @example
 * fillVariables("Hi {{client.first_name}}", values); // "Hi Asha"
 */
export function fillVariables(template: string, values: Readonly<Record<string, string | null>>): string {
  return renderMergeFields(template, values).replace(
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
