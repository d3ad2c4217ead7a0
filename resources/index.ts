/**
 * Every resource of the product, by name. Adding an entity = one schema file, one
 * resource file, one line here (sorted), and its migration.
 */
import { categories } from "./categories";
import type { ResourceDefinition } from "./contract";
import { pdfs } from "./pdfs";
import { products } from "./products";
import { subCategories } from "./sub-categories";

export const RESOURCES: readonly ResourceDefinition[] = [categories, pdfs, products, subCategories];

export function resourceByName(name: string): ResourceDefinition | undefined {
  return RESOURCES.find((r) => r.name === name);
}

export type { ResourceDefinition } from "./contract";
