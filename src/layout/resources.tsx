/**
 * Refine resources: one per module (`resources/*.module.ts`; its moduleID drives access
 * control, its icon is an antd icon by name), home, the mail outbox, the security log, and one
 * per entity (`resources/index.ts`), nested in the menu under its module. A module with
 * entities is a menu group of them, unless its one entity bears its name (isSoleNamesake). Order here is the menu order: modules as MODULES lists
 * them, a module's entities by their definitions' `order`.
 */
import {
  ApiOutlined,
  BuildOutlined,
  CalendarOutlined,
  HomeOutlined,
  MailOutlined,
  MenuOutlined,
  PictureOutlined,
  SafetyOutlined,
  ShopOutlined,
} from "@ant-design/icons";
import type { ResourceProps } from "@refinedev/core";
import type { ReactNode } from "react";
import { type AccessMeta, accessMetaFrom, findResource } from "../../providers/access-control";
import { canCreate, type ResourceDefinition } from "../../resources/contract";
import { RESOURCES as ENTITY_RESOURCES } from "../../resources/index";
import { MODULE_IDS, MODULES, type ModuleDefinition, moduleByKey } from "../../resources/modules";
import { ModuleIcon } from "../components/module-icons";
import { moduleGroupId, resourceRoutes } from "../resources/routes";

/** Menu order of entities: `order` (lowest first; none: after those with one), then label. */
export function byMenuOrder(
  a: Pick<ResourceDefinition, "order" | "label">,
  b: Pick<ResourceDefinition, "order" | "label">,
): number {
  const order = (a.order ?? Number.POSITIVE_INFINITY) - (b.order ?? Number.POSITIVE_INFINITY);
  // Infinity - Infinity is NaN: two entities without an order fall through to the label.
  return (Number.isNaN(order) ? 0 : order) || a.label.localeCompare(b.label);
}

/** The entity resources of a module, in menu order. */
export function resourcesOfModule(moduleKey: string): ResourceDefinition[] {
  return ENTITY_RESOURCES.filter((r) => r.parent === moduleKey).sort(byMenuOrder);
}

/**
 * Menu entries of a module's own screens besides its entities (the CMS's content types, a
 * module's webhooks), by module key, in menu order. Each is routed under the module's path
 * by MODULE_SCREENS (app-routes.tsx).
 */
const MODULE_SCREEN_MENU: Readonly<
  Record<string, ReadonlyArray<{ name: string; label: string; icon: ReactNode }>>
> = {
  cms: [
    { name: "content-types", label: "Content types", icon: <BuildOutlined aria-hidden /> },
    { name: "media", label: "Media library", icon: <PictureOutlined aria-hidden /> },
    { name: "navigations", label: "Navigations", icon: <MenuOutlined aria-hidden /> },
    { name: "webhooks", label: "Webhooks", icon: <ApiOutlined aria-hidden /> },
  ],
  crm: [
    { name: "calendar", label: "Calendar", icon: <CalendarOutlined aria-hidden /> },
    { name: "sms-outbox", label: "SMS outbox", icon: <MailOutlined aria-hidden /> },
    { name: "custom-fields", label: "Custom fields", icon: <BuildOutlined aria-hidden /> },
  ],
  forms: [{ name: "webhooks", label: "Webhooks", icon: <ApiOutlined aria-hidden /> }],
  store: [{ name: "connections", label: "Connected stores", icon: <ShopOutlined aria-hidden /> }],
};

/**
 * A module whose one entity bears the module's own name ("PDF library" in PDF library), and
 * that has no screen of its own beside it: a group of one would read "PDF library › PDF
 * library", so the entity stands in the menu in the group's place, and the group stays only
 * for access checks and routes.
 */
export function isSoleNamesake(module: Pick<ModuleDefinition, "key" | "name">): boolean {
  const own = resourcesOfModule(module.key);
  return (
    own.length === 1 &&
    own[0].label.toLowerCase() === module.name.toLowerCase() &&
    !MODULE_SCREEN_MENU[module.key]?.length
  );
}

/** The menu entry of a module's own screen: `<module>-<name>` at `/<module>/<name>`, under the module's group. */
function moduleScreenResource(
  moduleKey: string,
  screen: { name: string; label: string; icon: ReactNode },
): ResourceProps {
  return {
    name: `${moduleKey}-${screen.name}`,
    list: `/${moduleKey}/${screen.name}`,
    meta: {
      label: screen.label,
      icon: screen.icon,
      moduleID: MODULE_IDS[moduleKey],
      parent: moduleGroupId(moduleKey),
    },
  };
}

/** Entity resources outside any module: routed at `/<name>`. */
export const TOP_LEVEL_RESOURCES: readonly ResourceDefinition[] = ENTITY_RESOURCES.filter(
  (r) => !r.parent,
).sort(byMenuOrder);

/** Modules with hand-written screens. */
const HAND_WRITTEN: ReadonlySet<string> = new Set(["analytics", "dam", "store", "users"]);

/** Modules whose screens exist in this build; the others show an honest landing page. */
export const BUILT_MODULES: ReadonlySet<string> = new Set(
  MODULES.filter((m) => HAND_WRITTEN.has(m.key) || resourcesOfModule(m.key).length > 0).map((m) => m.key),
);

/** Routes of the hand-written modules that have CRUD screens. */
const CRUD_ROUTES: Record<string, Pick<ResourceProps, "create" | "edit" | "show">> = {
  users: { create: "/users/create", edit: "/users/edit/:id", show: "/users/show/:id" },
};

/** The server's users routes need an admin as well as the Users module. */
const ADMIN_ONLY: ReadonlySet<string> = new Set(["users"]);

function moduleResource(module: ModuleDefinition): ResourceProps {
  const meta: AccessMeta & Record<string, unknown> = {
    moduleID: module.moduleID,
    label: module.name,
    icon: <ModuleIcon name={module.icon} />,
  };
  if (ADMIN_ONLY.has(module.key)) meta.adminOnly = true;
  if (CRUD_ROUTES[module.key]) meta.canDelete = true;
  // A module with entities is their menu group: no page of its own in the menu, and an
  // identifier of its own, since an entity may share its name (the "products" resource).
  if (resourcesOfModule(module.key).length > 0) {
    if (isSoleNamesake(module)) meta.hide = true;
    return { name: module.key, identifier: moduleGroupId(module.key), meta };
  }
  return { name: module.key, list: `/${module.key}`, ...CRUD_ROUTES[module.key], meta };
}

/** An entity of resources/index.ts as a Refine resource (identifier = name = API path segment). */
export function entityResource(def: ResourceDefinition): ResourceProps {
  const { create, ...routes } = resourceRoutes(def);
  return {
    name: def.name,
    identifier: def.name,
    ...routes,
    ...(canCreate(def) ? { create } : {}),
    meta: {
      label: def.label,
      icon: <ModuleIcon name={def.icon} />,
      moduleID: def.moduleID,
      dataProviderName: def.base,
      canDelete: true,
      ...(def.parent && !isSoleNamesake(moduleByKey(def.parent) ?? { key: def.parent, name: "" })
        ? { parent: moduleGroupId(def.parent) }
        : {}),
    },
  };
}

/** The icons the menu shows (modules' and entities'), fetched as the app starts. */
export const MENU_ICONS: readonly string[] = [
  ...MODULES.map((m) => m.icon),
  ...[...MODULES.flatMap((m) => resourcesOfModule(m.key)), ...TOP_LEVEL_RESOURCES].map((def) => def.icon),
];

export const RESOURCES: readonly ResourceProps[] = [
  { name: "home", list: "/", meta: { label: "Home", icon: <HomeOutlined aria-hidden /> } },
  ...MODULES.flatMap((m) => [moduleResource(m), ...resourcesOfModule(m.key).map(entityResource)]),
  ...TOP_LEVEL_RESOURCES.map(entityResource),
  // Modules' own screens: the CMS's content types (each type's entries are runtime resources,
  // runtime-resources.tsx), media, navigations and webhooks; the forms' webhooks.
  ...Object.entries(MODULE_SCREEN_MENU).flatMap(([key, screens]) =>
    screens.map((screen) => moduleScreenResource(key, screen)),
  ),
  {
    name: "outbox",
    list: "/outbox",
    meta: {
      label: "Mail outbox",
      icon: <MailOutlined aria-hidden />,
      moduleID: MODULE_IDS.users,
      adminOnly: true,
    },
  },
  {
    // The users area's audit trail: routed under /users, served by GET /api/security-events.
    name: "security-events",
    list: "/users/security-log",
    meta: {
      label: "Security log",
      icon: <SafetyOutlined aria-hidden />,
      moduleID: MODULE_IDS.users,
      adminOnly: true,
    },
  },
];

/** The access meta of a resource by identifier or name (home cards, guards). */
export function accessMetaOf(name: string): AccessMeta {
  return accessMetaFrom(findResource(RESOURCES, name)?.meta);
}
