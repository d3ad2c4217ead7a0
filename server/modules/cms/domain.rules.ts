/**
 * The `domains` resource's rules: its locales make sense together (no locale twice, the
 * default not listed again, each fallback one of the domain's locales, no fallbacks in a
 * circle), which one field's schema cannot say (schemas/cms-locales.ts).
 */
import { storedLocaleErrors } from "../../../schemas/cms-locales";
import { invalidInputMessage } from "../../../schemas/error-messages";
import { badRequest } from "../../http/errors";
import type { ResourceRules } from "../../resources/rules";

const LOCALE_FIELDS = ["default_locale", "locales"];

export const domainRules: ResourceRules = {
  quiet: (_mode, fields) => !fields.some((f) => LOCALE_FIELDS.includes(f)),
  async beforeWrite({ existing, values }) {
    const stored = values.locales ?? existing?.locales ?? [];
    const locales = (typeof stored === "string" ? JSON.parse(stored) : stored) as string[];
    const details = storedLocaleErrors(
      String(values.default_locale ?? existing?.default_locale ?? "en"),
      locales,
    );
    if (details.length) throw badRequest(invalidInputMessage(details), details);
  },
};
