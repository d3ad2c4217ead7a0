import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../resources/index";
import { MODULES } from "../../resources/modules";
import { MODULE_ICONS } from "./module-icons";

describe("module icon registry", () => {
  it("has a component for every icon named in resources/modules.ts", () => {
    const missing = MODULES.filter((m) => !(m.icon in MODULE_ICONS)).map((m) => m.icon);
    expect(missing).toEqual([]);
  });

  it("has a component for every icon named in resources/<entity>.ts", () => {
    const missing = RESOURCES.filter((r) => !(r.icon in MODULE_ICONS)).map((r) => `${r.name}: ${r.icon}`);
    expect(missing).toEqual([]);
  });
});
