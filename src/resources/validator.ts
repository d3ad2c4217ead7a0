/**
 * The forms' validator: react-jsonschema-form over the same Ajv configuration as the
 * server's route bodies (schemas/validator-config.ts), with the server's messages
 * (schemas/error-messages.ts), so the form and the API give the same verdict in the same
 * words. Lives in the lazy form chunk with Ajv.
 */
import { customizeValidator } from "@rjsf/validator-ajv8";
import type { ErrorObject } from "ajv";
import { validationMessage } from "../../schemas/error-messages";
import { ajvOptions, FormatsAjv } from "../../schemas/validator-config";

/** Rewrites Ajv's messages in place with the server's wording (rjsf's localizer hook). */
export function localizeErrors(errors?: null | ErrorObject[]): void {
  for (const error of errors ?? []) error.message = validationMessage(error);
}

export const formValidator = customizeValidator(
  // Formats come from FormatsAjv (the server's ajv-formats), not rjsf's own copy.
  { ajvOptionsOverrides: ajvOptions({ coerce: false }), ajvFormatOptions: false, AjvClass: FormatsAjv },
  localizeErrors,
);
