/**
 * A resource definition: the Refine resource plus UI hints, over one entity schema; and a module
 * definition, the unit of permission the resources belong to.
 * Pure data (icons by name), so the server reads `moduleID` for its permission check and
 * tests loop over every definition.
 */
import type { EntitySchema } from "../schemas/contract";

export type ServiceBaseName = "api" | "cms" | "crm" | "forms" | "dam";
export type ScreenName = "list" | "create" | "edit" | "show";

export interface ResourceDefinition {
  /** Plural kebab-case name: the API path segment and the Refine resource name. */
  name: string;
  schema: EntitySchema;
  /** Module that grants access (resources/modules.ts). */
  moduleID: number;
  /** Service base; the API path is `/<base>/<name>` (`/api/products`). */
  base: ServiceBaseName;
  label: string;
  /** Singular label for buttons and titles ("Product"). */
  singular: string;
  /** antd icon component name. */
  icon: string;
  /** Menu group (a module key); the resource appears under it. */
  parent?: string;
  /**
   * Place in its menu group, lowest first (ties: by label). A module's namesake resource
   * ("Products" in Products) conventionally takes 0.
   */
  order?: number;
  /** Column widths of the list screen, by field. */
  columnWidths?: Readonly<Record<string, number>>;
  /** react-jsonschema-form uiSchema for create/edit. */
  uiSchema?: Readonly<Record<string, unknown>>;
  /**
   * Generic routes a module replaces with its own. `create: false`: no generic create route
   * or screen (a PDF is created by uploading its file, through its module's own route).
   * `edit: false`: records nobody edits (a form's submissions, the respondent's own words):
   * no edit screen or button; read by the screens of run-time resources, not the engine.
   */
  routes?: { create?: false; edit?: false };
  /**
   * A field of the record that changes on every write (CMS entries' `revision`): the edit form
   * sends the value it opened with, and a 409 from a newer one is shown as a conflict to
   * reload or overwrite, never a silent overwrite.
   */
  revisionField?: string;
  /**
   * The edit form saves by itself a few seconds after a change, as a draft update that adds no
   * version (`PATCH …?autosave=true`, CMS entries); Save still records a version.
   */
  autosave?: boolean;
  /**
   * `false`: no CSV export and import (records whose module serves no CSV routes);
   * `"export"`: export only (records that come from elsewhere, such as a form's submissions).
   */
  csv?: false | "export";
  /** Screens replaced by custom pages, by key of the SPA's custom page registry. */
  pages?: Partial<Record<ScreenName, string>>;
  /**
   * Extra actions, by key of the SPA's action registries: in a row, in the toolbar, and on
   * the rows selected (beside Delete selected).
   */
  actions?: { row?: readonly string[]; toolbar?: readonly string[]; bulk?: readonly string[] };
  /**
   * Text fields that `q` searches which get a "contains" filter of their own all the same, so
   * that columns of a kind filter alike (a form's three UTM columns, two of them searched).
   */
  textFilters?: readonly string[];
}

/**
 * The relation target of a user (an owner, an assignee): the platform's `users` table, which
 * is no resource; its records are named by `name` (first and last name) wherever one is picked.
 */
export const USERS_RELATION = "users";

/** Whether the engine serves the generic create route and screen of a resource. */
export const canCreate = (r: Pick<ResourceDefinition, "routes">) => r.routes?.create !== false;

/** Whether a resource's records have an edit screen. */
export const canEdit = (r: Pick<ResourceDefinition, "routes">) => r.routes?.edit !== false;

/** The API path of a resource's collection. */
export const resourcePath = (r: Pick<ResourceDefinition, "base" | "name">) => `/${r.base}/${r.name}`;

/** A module (`resources/<key>.module.ts`, listed by modules.ts): the unit of permission (spec §6). */
export interface ModuleDefinition {
  /** Stable numeric id stored in grants (`moduleID` in the spec). */
  moduleID: number;
  /** Machine key, also the SPA route segment; `MODULE_IDS.<key>` is its moduleID. */
  key: string;
  /** Menu label. */
  name: string;
  /** antd icon component name (resolved in the SPA; no React here). */
  icon: string;
  /** One-line description shown on the home screen. */
  description: string;
  /** Place in the menu and on the home screen, lowest first; default: the moduleID. */
  order?: number;
}
