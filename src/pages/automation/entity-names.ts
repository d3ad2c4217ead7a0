/**
 * An entity's name in words, without asking the server (the canvas's node titles): a resource
 * by its definition's singular ("Product"), a CMS type by its API name ("cms:blog-post" → "Blog
 * post entry"), a CRM record's first name capitalised.
 */
import { resourceByName } from "../../../resources";
import { CMS_ENTITY_PREFIX } from "../../../schemas/automation";

const capitalised = (words: string) => `${words.charAt(0).toUpperCase()}${words.slice(1)}`;

/**
 * @example
 * entityTitle("products"); // "Product"
 * entityTitle("cms:blog-post"); // "Blog post entry"
 */
export function entityTitle(name: string): string {
  if (name.startsWith(CMS_ENTITY_PREFIX))
    return `${capitalised(name.slice(CMS_ENTITY_PREFIX.length).replace(/[-_]/g, " "))} entry`;
  return resourceByName(name)?.singular ?? capitalised(name.replace(/[-_]/g, " "));
}
