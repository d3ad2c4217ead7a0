/**
 * The browser tab's title of a screen: "Edit Category | Atelier". Refine's own reads
 * "#<id> Edit Categories | Refine", and on our routes it does not know the id ("#undefined").
 * A record's id means nothing to a person, so the title names the screen, not the record.
 */
import { RESOURCES as ENTITIES } from "../../resources/index";
import { APP_NAME } from "../theme";

/** Singular names of the hand-written resources with record screens. */
const HAND_WRITTEN_SINGULAR: Record<string, string> = { users: "User" };

export interface TitleInput {
  action?: string;
  resource?: { name?: string; meta?: { label?: string } };
}

export function documentTitle({ action, resource }: TitleInput): string {
  const name = resource?.name ?? "";
  const label = resource?.meta?.label;
  if (!label || name === "home") return APP_NAME;
  const singular = ENTITIES.find((d) => d.name === name)?.singular ?? HAND_WRITTEN_SINGULAR[name] ?? label;
  const screen =
    action === "create"
      ? `Create ${singular}`
      : action === "edit"
        ? `Edit ${singular}`
        : action === "show"
          ? singular
          : label;
  return `${screen} | ${APP_NAME}`;
}
