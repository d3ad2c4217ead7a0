import { describe, expect, it } from "vitest";
import type { MeResponse } from "../../schemas/auth";
import { hasModuleAccess, modulesOf } from "./permissions";

const me = (modules_submodules: MeResponse["modules_submodules"]): MeResponse => ({
  userID: "u1",
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.com",
  plan_type: "pro",
  type_user: "ROLE_USER",
  isadmin: false,
  approverCondition: false,
  userRights: [],
  modules_submodules,
});

describe("hasModuleAccess", () => {
  it("grants access when an entry with the moduleID exists", () => {
    expect(hasModuleAccess([{ moduleID: 1 }, { moduleID: 5 }], 5)).toBe(true);
  });

  it("denies access otherwise", () => {
    expect(hasModuleAccess([{ moduleID: 1 }, { moduleID: 5 }], 2)).toBe(false);
    expect(hasModuleAccess([], 1)).toBe(false);
    expect(hasModuleAccess(null, 1)).toBe(false);
    expect(hasModuleAccess(undefined, 1)).toBe(false);
  });

  it("compares ids strictly", () => {
    const loose = [{ moduleID: "5" }] as unknown as Array<{ moduleID: number }>;
    expect(hasModuleAccess(loose, 5)).toBe(false);
  });
});

describe("modulesOf", () => {
  const pdf = { moduleID: 1, key: "pdf", name: "PDF library" };
  const crm = { moduleID: 5, key: "crm", name: "CRM" };

  it("takes the modules of the first entry of modules_submodules", () => {
    const user = me([
      { modules: [pdf], submodules: [] },
      { modules: [crm], submodules: [] },
    ]);
    expect(modulesOf(user)).toEqual([pdf]);
    expect(hasModuleAccess(modulesOf(user), 5)).toBe(false);
  });

  it("gives an empty list when there is no user or no entry", () => {
    expect(modulesOf(null)).toEqual([]);
    expect(modulesOf(undefined)).toEqual([]);
    expect(modulesOf(me([]))).toEqual([]);
  });
});
