import { cmsDomainSchema } from "../schemas/cms-domains";
import type { ResourceDefinition } from "./contract";
import { MODULE_IDS } from "./modules";

/** The sites and apps CMS content is delivered to (public paths `/public-cms/{key}/…`). */
export const cmsDomains: ResourceDefinition = {
  name: "domains",
  schema: cmsDomainSchema,
  moduleID: MODULE_IDS.cms,
  base: "cms",
  label: "Domains",
  singular: "Domain",
  icon: "GlobalOutlined",
  parent: "cms",
  order: 5,
  columnWidths: { access: 160 },
  pages: { show: "domains.show" },
  uiSchema: {
    "ui:order": [
      "name",
      "key",
      "hostname",
      "access",
      "default_locale",
      "locales",
      "allowed_origins",
      "preview_url",
      "cache_control",
    ],
  },
};
