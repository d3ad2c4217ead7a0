/**
 * Where a resource's screens live in the SPA: under its module (`/products/categories`) or
 * at the top (`/<name>`) when it has none. Refine's resource routes and the route tree
 * both come from here. Pure.
 */
import type { ResourceDefinition } from "../../resources/contract";

export interface ResourceRoutes {
  list: string;
  create: string;
  edit: string;
  show: string;
}

/**
 * The routes of a resource's four screens.
 *
 * @example
 * resourceRoutes(categories);
 * // { list: "/products/categories", create: "/products/categories/create",
 * //   edit: "/products/categories/edit/:id", show: "/products/categories/show/:id" }
 */
export function resourceRoutes(def: Pick<ResourceDefinition, "name" | "parent">): ResourceRoutes {
  const list = def.parent ? `/${def.parent}/${def.name}` : `/${def.name}`;
  return { list, create: `${list}/create`, edit: `${list}/edit/:id`, show: `${list}/show/:id` };
}

/** The path of one record's screen. */
export function recordPath(
  def: Pick<ResourceDefinition, "name" | "parent">,
  action: "edit" | "show",
  id: string | number,
): string {
  return resourceRoutes(def)[action].replace(":id", encodeURIComponent(String(id)));
}

/**
 * Refine identifier of a module's menu group. A module and a resource may share a name
 * ("products"), and Refine needs unique identifiers, so the group gets its own.
 */
export const moduleGroupId = (moduleKey: string): string => `module:${moduleKey}`;
