import { describe, expect, it } from "vitest";
import { MODULE_IDS } from "../../resources/modules";
import { runtimeFamilyOf } from "./runtime-resources";

const FORM = "0b7c5a7e-3f4d-4c1a-9a55-2f1e8d6c4b3a";

describe("runtimeFamilyOf", () => {
  it("knows a content type's entries", () => {
    expect(runtimeFamilyOf("entries/article")).toMatchObject({ moduleID: MODULE_IDS.cms, base: "cms" });
  });

  it("knows a form's submissions", () => {
    expect(runtimeFamilyOf(`forms/${FORM}/submissions`)).toMatchObject({
      moduleID: MODULE_IDS.forms,
      base: "forms",
    });
  });

  it("knows the CRM's timeline channel", () => {
    expect(runtimeFamilyOf("client-timeline")).toMatchObject({ moduleID: MODULE_IDS.crm, base: "crm" });
  });

  it("knows the automation runs channel", () => {
    expect(runtimeFamilyOf("automation-runs")).toMatchObject({
      moduleID: MODULE_IDS.automation,
      base: "api",
    });
  });

  it.each([
    "automation-runs/x",
    "client-timeline/x",
    "entries/",
    "entries/Article",
    "entries/a/b",
    "entries/../users",
    "forms",
    `forms/${FORM}`,
    `forms/${FORM}/submissions/x`,
    "forms/not-a-uuid/submissions",
    `forms/${FORM.toUpperCase()}/submissions`,
    `xforms/${FORM}/submissions`,
  ])("refuses %s", (name) => {
    expect(runtimeFamilyOf(name)).toBeUndefined();
  });
});
