import type { FormInstance } from "antd";
import { getErrorMessage, getFieldErrors } from "../lib/errors";

/**
 * Puts a refused answer's per-field errors under the form's fields they name (those in
 * `fields`, or any when it is left out). Answers the words for a refusal no field is about, to
 * show above the form; null when every error found its field.
 *
 * @example
 * const general = showFieldErrors(form, error, new Set(["name", "token"]));
 * if (general) setError(general);
 */
export function showFieldErrors<V>(
  form: FormInstance<V>,
  error: unknown,
  fields?: ReadonlySet<string>,
): string | null {
  const placed = getFieldErrors(error).filter((f) => !fields || fields.has(f.field));
  if (!placed.length) return getErrorMessage(error);
  form.setFields(placed.map((f) => ({ name: f.field as never, errors: [f.message] })));
  return null;
}
