/**
 * Every module and resource definition is checked here, as discovered from resources/: a new
 * entity or module needs no new test file.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { USERS_RELATION } from "../../resources/contract";
import { RESOURCES } from "../../resources/index";
import { MODULES } from "../../resources/modules";
import { AUDIT_FIELDS, baseType } from "../../schemas/contract";
import { antdIconNames } from "../../scripts/vite/antd-icons";

const ANTD_ICONS = antdIconNames(path.resolve(import.meta.dirname, "../.."));

describe.each(MODULES.map((m) => [m.key, m] as const))("module %s", (_key, m) => {
  it("has a kebab-case key, a name, a description and an antd icon", () => {
    expect(m.key).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
    expect(m.name.trim()).not.toBe("");
    expect(m.description.trim()).not.toBe("");
    expect(ANTD_ICONS.has(m.icon), m.icon).toBe(true);
  });
});

describe.each(RESOURCES.map((r) => [r.name, r] as const))("resource %s", (_name, r) => {
  const fields = Object.keys(r.schema.properties);

  it("has a kebab-case plural name, a module that exists and a label", () => {
    expect(r.name).toMatch(/^[a-z]+(-[a-z]+)*s$/);
    expect(MODULES.map((m) => m.moduleID)).toContain(r.moduleID);
    if (r.parent) expect(MODULES.map((m) => m.key)).toContain(r.parent);
    expect(r.label).not.toBe("");
    expect(ANTD_ICONS.has(r.icon), r.icon).toBe(true);
  });

  it("names only its own fields in its hints", () => {
    const named = [
      ...r.schema["x-list"],
      ...r.schema["x-filterable"],
      ...r.schema["x-searchable"],
      ...(r.schema["x-unique"] ?? []).flat(),
      r.schema["x-label"],
      ...r.schema["x-defaultSort"].split(",").map((f) => f.trim().replace(/^-/, "")),
      ...r.schema.required,
      ...Object.keys(r.columnWidths ?? {}),
    ];
    expect(named.filter((f) => !fields.includes(f))).toEqual([]);
  });

  it("has the audit fields, read-only, and no required read-only field", () => {
    for (const f of AUDIT_FIELDS) expect(r.schema.properties[f]?.readOnly, f).toBe(true);
    expect(r.schema.required.filter((f) => r.schema.properties[f].readOnly)).toEqual([]);
    expect(r.schema.additionalProperties).toBe(false);
  });

  it("relates only to existing resources and their fields", () => {
    for (const [field, schema] of Object.entries(r.schema.properties)) {
      const rel = schema["x-relation"];
      if (!rel) continue;
      // An owner or assignee: the platform's users, named by `name`.
      if (rel.resource === USERS_RELATION) {
        expect([rel.resource, rel.labelField, schema.format]).toEqual(["users", "name", "uuid"]);
        continue;
      }
      const target = RESOURCES.find((t) => t.name === rel.resource);
      expect(target, `${field} → ${rel.resource}`).toBeDefined();
      expect(Object.keys(target?.schema.properties ?? {})).toContain(rel.labelField);
      expect(schema.format).toBe("uuid");
    }
  });

  it("searches only text fields", () => {
    for (const f of r.schema["x-searchable"]) expect(baseType(r.schema.properties[f])).toBe("string");
  });
});

it("module ids and keys are unique", () => {
  expect(new Set(MODULES.map((m) => m.moduleID)).size).toBe(MODULES.length);
  expect(new Set(MODULES.map((m) => m.key)).size).toBe(MODULES.length);
});

it("resource names are unique and sorted in the registry", () => {
  const names = RESOURCES.map((r) => r.name);
  expect(new Set(names).size).toBe(names.length);
  expect([...names].sort()).toEqual(names);
});
