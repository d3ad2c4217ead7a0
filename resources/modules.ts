/**
 * The product's modules: the unit of permission (spec §6).
 *
 * Pure data, read by the server (seed of the `modules` table, route permission
 * checks) and by the SPA (menu, access-control provider). A moduleID is stable
 * forever: it is stored in users' grants, so never renumber an entry.
 */
export interface ModuleDefinition {
  /** Stable numeric id stored in grants (`moduleID` in the spec). */
  moduleID: number;
  /** Machine key, also the SPA route segment. */
  key: string;
  /** Menu label. */
  name: string;
  /** antd icon component name (resolved in the SPA; no React here). */
  icon: string;
  /** One-line description shown on the home screen. */
  description: string;
}

export const MODULE_IDS = {
  pdf: 1,
  products: 2,
  store: 3,
  cms: 4,
  crm: 5,
  forms: 6,
  automation: 7,
  dam: 8,
  analytics: 9,
  users: 10,
} as const;

export type ModuleKey = keyof typeof MODULE_IDS;

export const MODULES: readonly ModuleDefinition[] = [
  {
    moduleID: 1,
    key: "pdf",
    name: "PDF library",
    icon: "FilePdfOutlined",
    description: "Catalogue PDFs with shoppable hotspots",
  },
  {
    moduleID: 2,
    key: "products",
    name: "Products",
    icon: "ShoppingOutlined",
    description: "Product master data, categories and sub-categories",
  },
  {
    moduleID: 3,
    key: "store",
    name: "Online store",
    icon: "ShopOutlined",
    description: "Store integration: product and cart lists",
  },
  {
    moduleID: 4,
    key: "cms",
    name: "CMS",
    icon: "ReadOutlined",
    description: "Headless content: types, media, domains, navigations",
  },
  {
    moduleID: 5,
    key: "crm",
    name: "CRM",
    icon: "TeamOutlined",
    description: "Clients, opportunities, dialogs and sequences",
  },
  {
    moduleID: 6,
    key: "forms",
    name: "Forms",
    icon: "FormOutlined",
    description: "Form builder with UTM and mail settings",
  },
  {
    moduleID: 7,
    key: "automation",
    name: "Automation",
    icon: "ApartmentOutlined",
    description: "Workflow automation builder",
  },
  {
    moduleID: 8,
    key: "dam",
    name: "Digital assets",
    icon: "PictureOutlined",
    description: "Folders and assets shared by every module",
  },
  {
    moduleID: 9,
    key: "analytics",
    name: "Analytics",
    icon: "LineChartOutlined",
    description: "Views, visitors and searched words",
  },
  {
    moduleID: 10,
    key: "users",
    name: "Users",
    icon: "UserOutlined",
    description: "Users, roles, module grants and devices",
  },
];

/** Looks a module up by its key. */
export function moduleByKey(key: string): ModuleDefinition | undefined {
  return MODULES.find((m) => m.key === key);
}
