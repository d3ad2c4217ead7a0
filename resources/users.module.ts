import type { ModuleDefinition } from "./modules";

export const usersModule: ModuleDefinition = {
  moduleID: 10,
  key: "users",
  name: "Users",
  icon: "UserOutlined",
  description: "Users, roles, module grants and devices",
};
