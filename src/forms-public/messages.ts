/**
 * Sentences the form shows whoever renders it (the server's page, the script), kept apart from
 * the renderer so that the page's script does not carry the renderer for them.
 */
import { plural } from "../lib/text";

export const CLOSED_MESSAGE = "This form is closed.";

/**
 * The sentence above the button after a refused submission: how many answers need attention,
 * and the messages that belong to no field of the form (a malformed body, a closed form).
 *
 * @example
 * summary([{ field: "email", message: "Email is required" }], new Set(["email"])); // "Please check 1 answer marked above."
 */
export function summary(
  errors: ReadonlyArray<{ field: string; message: string }>,
  known: ReadonlySet<string>,
) {
  if (!errors.length) return "";
  const onFields = new Set(errors.filter((e) => known.has(e.field)).map((e) => e.field)).size;
  const others = errors.filter((e) => !known.has(e.field)).map((e) => e.message);
  const lead = onFields ? `Please check ${plural(onFields, "answer")} marked above.` : "";
  return [lead, ...others].filter(Boolean).join(" ");
}
