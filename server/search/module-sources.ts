/**
 * Search sources of module tables that are no engine resource: users (for administrators, as
 * the Users screens), the asset manager's assets, and CMS entries (every content type's, named
 * by its type's label field). Each is allowed by the same rule as its module's routes.
 */
import { MODULE_IDS } from "../../resources/modules";
import type { SearchSource } from "./search-source";

const fullName = "(t.first_name || ' ' || t.last_name)";

const users: SearchSource = {
  key: "users",
  label: "Users",
  icon: "UserOutlined",
  // The users routes: the Users module and an administrator (users.routes.ts).
  allowed: (p) => p.isAdmin && p.modules.has(MODULE_IDS.users),
  part: {
    from: "users t",
    title: fullName,
    name: fullName,
    subtitle: "t.email",
    searched: ["t.first_name", "t.last_name", "t.email", fullName],
  },
  path: (hit) => `/users/show/${encodeURIComponent(hit.id)}`,
};

const assets: SearchSource = {
  key: "dam-assets",
  label: "Assets",
  icon: "PictureOutlined",
  allowed: (p) => p.modules.has(MODULE_IDS.dam),
  part: {
    from: "dam_assets t",
    title: "t.name",
    name: "t.name",
    subtitle: "t.mime",
    extra: "t.folder_id::text",
    searched: ["t.name"],
  },
  // The asset manager opens on the asset's folder, searched for its name.
  path: (hit) => {
    const params = new URLSearchParams();
    if (hit.extra) params.set("folder", hit.extra);
    params.set("q", hit.title);
    return `/dam?${params}`;
  },
};

/** An entry's name: its type's label field (`x-label` of the stored schema), else its slug. */
const entryTitle = "(t.data ->> (ct.schema ->> 'x-label'))";

const cmsEntries: SearchSource = {
  key: "cms-entries",
  label: "CMS entries",
  icon: "ReadOutlined",
  allowed: (p) => p.modules.has(MODULE_IDS.cms),
  part: {
    from: "cms_entries t join content_types ct on ct.id = t.type_id",
    // The default locale's entries: a translation opens from its entry.
    where: "t.source_id is null and ct.kind <> 'component'",
    title: `coalesce(nullif(${entryTitle}, ''), t.slug, 'Untitled')`,
    name: entryTitle,
    subtitle: "ct.name",
    extra: "ct.api_name",
    searched: [entryTitle, "t.slug"],
  },
  path: (hit) => `/cms/entries/${encodeURIComponent(hit.extra ?? "")}/show/${encodeURIComponent(hit.id)}`,
};

/** Sources of the modules' own tables, in the order their groups come when equally good. */
export const MODULE_SOURCES: readonly SearchSource[] = [cmsEntries, assets, users];
