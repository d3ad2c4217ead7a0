/**
 * Mail per kind of notification, kept as one of the user's preferences
 * (`notifications.mail`, server/modules/preferences): an object of kind → true. A user sees
 * and sets the kinds of the modules they hold; a kind of a module they lost keeps its
 * setting (nothing of that module reaches them anyway) and is back with the grant.
 */
import {
  NOTIFICATION_KINDS,
  NOTIFICATION_MAIL_PREFERENCE,
  type NotificationKind,
  type NotificationPreferences,
  type NotificationPreferencesWrite,
} from "../../schemas/notifications";
import type { Principal } from "../auth/principal";
import type { AppContext } from "../context";
import { badRequest } from "../http/errors";
import { getPreference, putPreference } from "../modules/preferences/preferences.service";
import { moduleOfKind } from "./notify";

/** The stored choices, whatever JSON the key holds (the generic preferences route may write any). */
function choicesOf(value: unknown): Partial<Record<NotificationKind, boolean>> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const choices: Partial<Record<NotificationKind, boolean>> = {};
  for (const [kind, on] of Object.entries(value)) {
    if (on === true && Object.hasOwn(NOTIFICATION_KINDS, kind)) choices[kind as NotificationKind] = true;
  }
  return choices;
}

/** The kinds the user's modules send, in the registry's order. */
const kindsFor = (who: Principal) =>
  (Object.keys(NOTIFICATION_KINDS) as NotificationKind[]).filter((kind) =>
    who.modules.has(moduleOfKind(kind)),
  );

export async function getMailPreferences(ctx: AppContext, who: Principal): Promise<NotificationPreferences> {
  const { value } = await getPreference(ctx, who.userId, NOTIFICATION_MAIL_PREFERENCE);
  const choices = choicesOf(value);
  return {
    kinds: kindsFor(who).map((kind) => ({
      kind,
      label: NOTIFICATION_KINDS[kind].label,
      description: NOTIFICATION_KINDS[kind].description,
      mail: choices[kind] === true,
    })),
  };
}

/**
 * Sets mail on or off for the kinds given; the others keep their setting. A kind of a module
 * the user does not hold is refused (400, per field), and nothing is changed.
 */
export async function putMailPreferences(
  ctx: AppContext,
  who: Principal,
  write: NotificationPreferencesWrite,
): Promise<NotificationPreferences> {
  const held = new Set(kindsFor(who));
  const refused = Object.keys(write.mail).filter((kind) => !held.has(kind as NotificationKind));
  if (refused.length) {
    throw badRequest(
      "Invalid body: please correct the highlighted fields",
      refused.map((kind) => ({
        field: `mail.${kind}`,
        message: `${NOTIFICATION_KINDS[kind as NotificationKind].label} come from a module you do not have`,
      })),
    );
  }
  const { value } = await getPreference(ctx, who.userId, NOTIFICATION_MAIL_PREFERENCE);
  const choices = choicesOf(value);
  for (const [kind, on] of Object.entries(write.mail) as Array<[NotificationKind, boolean]>) {
    if (on) choices[kind] = true;
    else delete choices[kind];
  }
  await putPreference(ctx, who.userId, NOTIFICATION_MAIL_PREFERENCE, choices);
  return getMailPreferences(ctx, who);
}
