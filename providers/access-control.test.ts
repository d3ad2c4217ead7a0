import { describe, expect, it } from "vitest";
import type { MeResponse } from "../schemas/auth";
import { allows, createAccessControlProvider, findResource, NO_MODULE_ACCESS } from "./access-control";

function user(moduleIDs: number[], isadmin = false): MeResponse {
  return {
    userID: "u1",
    first_name: "Ada",
    last_name: "Lovelace",
    email: "ada@example.com",
    plan_type: "standard",
    type_user: isadmin ? "ROLE_ADMIN" : "ROLE_USER",
    isadmin,
    approverCondition: false,
    userRights: [],
    modules_submodules: [
      {
        modules: moduleIDs.map((moduleID) => ({ moduleID, key: `m${moduleID}`, name: `M${moduleID}` })),
        submodules: [],
      },
    ],
  };
}

const resources = [
  { name: "home", list: "/" },
  { name: "crm", list: "/crm", meta: { moduleID: 5 } },
  { name: "users", list: "/users", meta: { moduleID: 10, adminOnly: true } },
];

describe("allows", () => {
  it("grants a module listed in the user's first modules entry", () => {
    expect(allows(user([5]), { moduleID: 5 })).toBe(true);
    expect(allows(user([1]), { moduleID: 5 })).toBe(false);
  });

  it("grants resources that are not modules", () => {
    expect(allows(user([]), undefined)).toBe(true);
  });

  it("needs an admin for admin-only modules", () => {
    expect(allows(user([10]), { moduleID: 10, adminOnly: true })).toBe(false);
    expect(allows(user([10], true), { moduleID: 10, adminOnly: true })).toBe(true);
  });
});

describe("createAccessControlProvider", () => {
  it("resolves a resource by name and says why it refuses", async () => {
    const provider = createAccessControlProvider({ loadMe: async () => user([1]), resources });
    await expect(provider.can({ resource: "crm", action: "list" })).resolves.toEqual({
      can: false,
      reason: NO_MODULE_ACCESS,
    });
    await expect(provider.can({ resource: "home", action: "list" })).resolves.toEqual({ can: true });
  });

  it("prefers the resource item Refine passes in params", async () => {
    const provider = createAccessControlProvider({ loadMe: async () => user([5]), resources: [] });
    const can = await provider.can({
      resource: "crm",
      action: "list",
      params: { resource: { name: "crm", meta: { moduleID: 5 } } },
    });
    expect(can).toEqual({ can: true });
  });
});

describe("findResource", () => {
  it("finds by identifier first, then by name, as Refine does", () => {
    const shared = [
      { name: "products", identifier: "module:products", meta: { label: "Products module" } },
      { name: "products", identifier: "products", meta: { label: "Products" } },
      { name: "crm" },
    ];
    expect(findResource(shared, "products")?.meta?.label).toBe("Products");
    expect(findResource(shared, "module:products")?.meta?.label).toBe("Products module");
    expect(findResource(shared, "crm")?.name).toBe("crm");
    expect(findResource(shared, undefined)).toBeUndefined();
  });
});
