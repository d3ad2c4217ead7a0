/**
 * What the command menu (Ctrl+K) lists: commands derived from the app's resources the person
 * may open ("Go to Proposals", "New client"), records the server found, and the recently opened
 * ones kept on this device. Pure: no React rendering, no DOM (localStorage is passed in).
 */
import type { ResourceProps } from "@refinedev/core";
import type { ReactNode } from "react";
import { accessMetaFrom, allows } from "../../../providers/access-control";
import { resourceByName } from "../../../resources/index";
import { moduleByKey } from "../../../resources/modules";
import type { MeResponse } from "../../../schemas/auth";
import type { SearchGroup } from "../../../schemas/search";

/** One row of the menu. */
export interface MenuItem {
  key: string;
  /** The heading it is listed under ("Recent", "Go to", "Clients"). */
  group: string;
  title: string;
  subtitle?: string | null;
  /** A word at the row's end: a command's module ("CRM"), to tell "Webhooks" from "Webhooks". */
  hint?: string;
  /** A ReactNode (a command's own icon), or an antd icon name (a record's resource). */
  icon: ReactNode;
  iconName?: string;
  /** Where Enter takes the person, under `/manage`. */
  path: string;
}

/** "Users" → "user": a command's noun for resources without a singular label of their own. */
const singularOf = (label: string) => label.replace(/ies$/, "y").replace(/s$/, "");

/**
 * The module a resource's menu entry sits under (its name), for telling "Webhooks" from
 * "Webhooks"; none when it says nothing more than the label ("Products" in Products).
 */
function moduleNameOf(r: ResourceProps, label: string): string | undefined {
  const parent = r.meta?.parent;
  if (typeof parent !== "string" || !parent.startsWith("module:")) return undefined;
  const name = moduleByKey(parent.slice("module:".length))?.name;
  return name === label ? undefined : name;
}

/**
 * The commands the person may run: "Go to …" for every screen with a list they may open, and
 * "New …" for every resource they may create, from the app's Refine resources (no list per module).
 */
export function commandsFor(
  resources: readonly ResourceProps[],
  me: MeResponse | null | undefined,
): MenuItem[] {
  const open = resources.filter((r) => allows(me, accessMetaFrom(r.meta)));
  const goTo = open.flatMap((r): MenuItem[] => {
    if (typeof r.list !== "string") return [];
    const label = String(r.meta?.label ?? r.name);
    return [
      {
        key: `go:${r.identifier ?? r.name}`,
        group: "Go to",
        title: `Go to ${label}`,
        hint: moduleNameOf(r, label),
        icon: r.meta?.icon as ReactNode,
        path: r.list,
      },
    ];
  });
  const create = open.flatMap((r): MenuItem[] => {
    if (typeof r.create !== "string") return [];
    const label = String(r.meta?.label ?? r.name);
    const noun = resourceByName(r.name)?.singular ?? singularOf(label);
    return [
      {
        key: `new:${r.identifier ?? r.name}`,
        group: "Create",
        title: `New ${noun.toLowerCase()}`,
        hint: moduleNameOf(r, label),
        icon: r.meta?.icon as ReactNode,
        path: r.create,
      },
    ];
  });
  return [...create, ...goTo];
}

/** Commands whose words all appear in the title or its module ("new cli" finds "New client"). */
export function matchingCommands(commands: readonly MenuItem[], q: string, max = 6): MenuItem[] {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  return commands
    .filter((c) => {
      const text = `${c.title} ${c.hint ?? ""}`.toLowerCase();
      return words.every((w) => text.includes(w));
    })
    .slice(0, max);
}

/** The server's groups as menu rows, in its order. */
export function recordItems(groups: readonly SearchGroup[]): MenuItem[] {
  return groups.flatMap((g) =>
    g.hits.map((h) => ({
      key: `record:${g.resource}:${h.id}`,
      group: g.label,
      title: h.title || "Untitled",
      subtitle: h.subtitle,
      icon: null,
      iconName: g.icon,
      path: h.path,
    })),
  );
}

/** A recently opened record, as kept on this device. */
export interface RecentItem {
  title: string;
  subtitle?: string | null;
  iconName?: string;
  /** The resource's label ("Clients"), shown beside the title. */
  group: string;
  path: string;
}

export const MAX_RECENT = 6;
/** Per user: a shared computer does not show one person's records to the next. */
export const recentKey = (userId: string) => `atelier.search.recent.${userId}`;

const isRecent = (v: unknown): v is RecentItem => {
  const r = v as RecentItem | null;
  return (
    typeof r === "object" &&
    r !== null &&
    typeof r.title === "string" &&
    typeof r.group === "string" &&
    typeof r.path === "string" &&
    r.path.startsWith("/")
  );
};

/** The recent items kept in `storage` (anything unreadable is no item). */
export function readRecent(storage: Pick<Storage, "getItem">, userId: string): RecentItem[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(recentKey(userId)) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isRecent).slice(0, MAX_RECENT) : [];
  } catch {
    return [];
  }
}

/** Puts an opened record first among the recent ones (once), keeping MAX_RECENT. */
export function rememberRecent(
  storage: Pick<Storage, "getItem" | "setItem">,
  userId: string,
  item: RecentItem,
) {
  const kept = readRecent(storage, userId).filter((r) => r.path !== item.path);
  const { title, subtitle, iconName, group, path } = item;
  try {
    storage.setItem(
      recentKey(userId),
      JSON.stringify([{ title, subtitle, iconName, group, path }, ...kept].slice(0, MAX_RECENT)),
    );
  } catch {
    // A full or refused storage costs the recent list, not the navigation.
  }
}

/** Recent items as menu rows. */
export const recentItems = (recent: readonly RecentItem[]): MenuItem[] =>
  recent.map((r) => ({
    key: `recent:${r.path}`,
    group: "Recent",
    title: r.title,
    subtitle: r.subtitle ? `${r.group} · ${r.subtitle}` : r.group,
    icon: null,
    iconName: r.iconName,
    path: r.path,
  }));
