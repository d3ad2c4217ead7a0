import type { ModuleDefinition } from "./modules";

export const damModule: ModuleDefinition = {
  moduleID: 8,
  key: "dam",
  name: "Digital assets",
  icon: "PictureOutlined",
  description: "Folders and assets shared by every module",
};
