import { describe, expect, it } from "vitest";
import type { MeResponse } from "../schemas/auth";
import {
  allows,
  createAccessControlProvider,
  findResource,
  knownIdentity,
  NO_MODULE_ACCESS,
} from "./access-control";

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

describe("knownIdentity", () => {
  it("loads the identity while online", async () => {
    let online = true;
    let calls = 0;
    const identity = knownIdentity(
      async () => {
        calls += 1;
        return user([calls]);
      },
      () => online,
    );
    expect(modulesOfFirst(await identity())).toEqual([1]);
    expect(modulesOfFirst(await identity())).toEqual([2]);
    online = false;
    expect(modulesOfFirst(await identity())).toEqual([2]);
    expect(calls).toBe(2);
  });

  it("keeps the known identity when a load gets no answer or a 5xx", async () => {
    const answers: unknown[] = [user([5]), { statusCode: 0 }, { statusCode: 503 }];
    const identity = knownIdentity(
      async () => {
        const next = answers.shift();
        if (next && "userID" in (next as object)) return next as MeResponse;
        throw next;
      },
      () => true,
    );
    expect(modulesOfFirst(await identity())).toEqual([5]);
    expect(modulesOfFirst(await identity())).toEqual([5]);
    expect(modulesOfFirst(await identity())).toEqual([5]);
  });

  it("passes on a refusal, and any failure before an identity is known", async () => {
    const failing = knownIdentity(
      async () => {
        throw { statusCode: 0 };
      },
      () => true,
    );
    await expect(failing()).rejects.toEqual({ statusCode: 0 });

    let first = true;
    const refused = knownIdentity(
      async () => {
        if (first) {
          first = false;
          return user([5]);
        }
        throw { response: { status: 401 } };
      },
      () => true,
    );
    await refused();
    await expect(refused()).rejects.toEqual({ response: { status: 401 } });
  });

  it("never says 'no access' offline for a module the user had (provider)", async () => {
    let online = true;
    let calls = 0;
    const provider = createAccessControlProvider({
      loadMe: async () => {
        calls += 1;
        if (!online) throw new Error("offline load must not be tried");
        return user([5]);
      },
      resources,
      isOnline: () => online,
    });
    await expect(provider.can({ resource: "crm", action: "list" })).resolves.toEqual({ can: true });
    online = false;
    await expect(provider.can({ resource: "crm", action: "list" })).resolves.toEqual({ can: true });
    expect(calls).toBe(1);
  });
});

const modulesOfFirst = (me: MeResponse) => me.modules_submodules[0].modules.map((m) => m.moduleID);
