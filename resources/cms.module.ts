import type { ModuleDefinition } from "./modules";

export const cmsModule: ModuleDefinition = {
  moduleID: 4,
  key: "cms",
  name: "CMS",
  icon: "ReadOutlined",
  description: "Headless content: types, media, domains, navigations",
};
