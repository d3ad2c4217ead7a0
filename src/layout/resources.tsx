/**
 * Refine resources: one per module of `resources/modules.ts` (its moduleID drives access
 * control, its icon name is resolved through the icon registry), plus home and the mail
 * outbox. Order here is the menu order.
 */
import { HomeOutlined, MailOutlined } from "@ant-design/icons";
import type { ResourceProps } from "@refinedev/core";
import { type AccessMeta, accessMetaFrom } from "../../providers/access-control";
import { MODULE_IDS, MODULES, type ModuleDefinition } from "../../resources/modules";
import { ModuleIcon } from "../components/module-icons";

/** Modules whose screens exist in this build; the others show an honest landing page. */
export const BUILT_MODULES: ReadonlySet<string> = new Set(["users"]);

/** Routes of the modules that have CRUD screens. */
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
  return { name: module.key, list: `/${module.key}`, ...CRUD_ROUTES[module.key], meta };
}

export const RESOURCES: readonly ResourceProps[] = [
  { name: "home", list: "/", meta: { label: "Home", icon: <HomeOutlined /> } },
  ...MODULES.map(moduleResource),
  {
    name: "outbox",
    list: "/outbox",
    meta: { label: "Mail outbox", icon: <MailOutlined />, moduleID: MODULE_IDS.users, adminOnly: true },
  },
];

/** The access meta of a resource by name (home cards, guards). */
export function accessMetaOf(name: string): AccessMeta {
  return accessMetaFrom(RESOURCES.find((r) => r.name === name)?.meta);
}
