/** The statements `npm run migration:new` writes for a changed schema (server/resources/table-diff.ts). */
import { describe, expect, it } from "vitest";
import { auditProperties, type EntitySchema, type FieldSchema } from "../../schemas/contract";
import { alterSql, diffTables } from "../../server/resources/table-diff";
import { type TableModel, tableModelOf } from "../../server/resources/table-model";

type Fields = Record<string, FieldSchema>;

function schemaOf(fields: Fields, extra: Partial<EntitySchema> = {}): EntitySchema {
  return {
    $id: "widget",
    title: "Widget",
    type: "object",
    additionalProperties: false,
    "x-table": "widgets",
    "x-label": "title",
    "x-defaultSort": "title",
    "x-list": ["title"],
    "x-searchable": [],
    "x-filterable": [],
    required: ["title"],
    ...extra,
    properties: { ...auditProperties, title: { type: "string", title: "Title", maxLength: 50 }, ...fields },
  };
}

const tableOf = (name: string) => name.replace(/-/g, "_");
const model = (fields: Fields, extra?: Partial<EntitySchema>): TableModel =>
  tableModelOf(schemaOf(fields, extra), tableOf);
const diff = (before: TableModel, after: TableModel) => diffTables(before, after);
const sqlOf = (before: TableModel, after: TableModel) => diff(before, after).map((s) => s.sql);

describe("the difference between two schemas of one table", () => {
  it("is nothing when the schema did not change", () => {
    const m = model({ size: { type: "integer", minimum: 0 } });
    expect(diff(m, model({ size: { type: "integer", minimum: 0 } }))).toEqual([]);
  });

  it("adds a column, with its default, and its check after it", () => {
    const steps = diff(
      model({}),
      model({ colour: { type: "string", enum: ["red", "blue"], default: "red" } }),
    );
    expect(steps).toEqual([
      { sql: "alter table widgets add column colour text not null default 'red';" },
      {
        sql: "alter table widgets add constraint widgets_colour_check check (colour in ('red', 'blue'));",
        review: expect.stringContaining("existing rows must satisfy"),
      },
    ]);
  });

  it("flags a required column without a default: it cannot be added to a table with rows", () => {
    const [step] = diff(model({}), model({ code: { type: "string" } }, { required: ["title", "code"] }));
    expect(step.sql).toBe("alter table widgets add column code text not null;");
    expect(step.review).toMatch(/fails on a table with rows/);
  });

  it("drops a column for review, after the constraints on it", () => {
    const steps = diff(
      model({ size: { type: "integer", minimum: 0 } }, { "x-filterable": ["size"] }),
      model({}),
    );
    expect(steps.map((s) => s.sql)).toEqual([
      "alter table widgets drop constraint widgets_size_check;",
      "drop index widgets_size_idx;",
      "alter table widgets drop column size;",
    ]);
    expect(steps[2].review).toMatch(/drops size and every value in it.*rename column/);
  });

  it('follows nullability: optional, required, and `type: [t, "null"]`', () => {
    const optional = model({ note: { type: "string" } });
    const required = model({ note: { type: "string" } }, { required: ["title", "note"] });
    const nullable = model({ note: { type: ["string", "null"] } }, { required: ["title", "note"] });
    const [tighten] = diff(optional, required);
    expect(tighten.sql).toBe("alter table widgets alter column note set not null;");
    expect(tighten.review).toMatch(/a row holding null stops the migration/);
    expect(sqlOf(required, nullable)).toEqual(["alter table widgets alter column note drop not null;"]);
    expect(sqlOf(nullable, optional)).toEqual([]);
  });

  it("sets, changes and drops a default", () => {
    const none = model({ active: { type: "boolean" } });
    const on = model({ active: { type: "boolean", default: true } });
    const off = model({ active: { type: "boolean", default: false } });
    expect(sqlOf(none, on)).toEqual([
      "alter table widgets alter column active set default true;",
      "alter table widgets alter column active set not null;",
    ]);
    expect(sqlOf(on, off)).toEqual(["alter table widgets alter column active set default false;"]);
    expect(sqlOf(off, none)).toEqual([
      "alter table widgets alter column active drop default;",
      "alter table widgets alter column active drop not null;",
    ]);
  });

  it("replaces a check whose rule changed, under the same name", () => {
    const before = model({ size: { type: "integer", minimum: 0, maximum: 10 } });
    const after = model({ size: { type: "integer", exclusiveMinimum: 0, maximum: 99 } });
    expect(sqlOf(before, after)).toEqual([
      "alter table widgets drop constraint widgets_size_check;",
      "alter table widgets add constraint widgets_size_check check (size > 0 and size <= 99);",
    ]);
  });

  it("holds lengths, ranges, enums and item counts in one check per field", () => {
    const m = model({
      code: { type: "string", minLength: 2, maxLength: 8, enum: ["ab", "cd"] },
      price: { type: "number", multipleOf: 0.01, minimum: 0, exclusiveMaximum: 100 },
      tags: { type: "array", items: { type: "string" }, maxItems: 3 },
      starts: { type: "string", format: "time" },
      when: { type: "string", format: "date", minLength: 10 },
    });
    expect(m.checks.map((c) => c.expression)).toEqual([
      "char_length(title) <= 50",
      "char_length(code) >= 2 and char_length(code) <= 8 and code in ('ab', 'cd')",
      "price >= 0 and price < 100",
      "jsonb_array_length(tags) <= 3",
    ]);
    expect(m.columns.find((c) => c.name === "starts")?.type).toBe("time");
  });

  it("adds a unique constraint", () => {
    const steps = diff(model({}), model({}, { "x-unique": [["title"]] }));
    expect(steps.map((s) => s.sql)).toEqual([
      "alter table widgets add constraint widgets_title_key unique (title);",
    ]);
    expect(steps[0].review).toMatch(/existing rows must satisfy/);
  });

  it("replaces a foreign key whose on delete changed", () => {
    const relation = (onDelete?: "cascade" | "set null") => ({
      owner_id: {
        type: "string",
        format: "uuid",
        "x-relation": { resource: "owners", labelField: "name", ...(onDelete ? { onDelete } : {}) },
      } as const,
    });
    const restrict = model(relation());
    expect(restrict.foreignKeys.at(-1)?.onDelete).toBe("restrict");
    expect(sqlOf(restrict, model(relation("cascade")))).toEqual([
      "alter table widgets drop constraint widgets_owner_id_fkey;",
      "alter table widgets add constraint widgets_owner_id_fkey foreign key (owner_id) references owners (id) on delete cascade;",
    ]);
    expect(sqlOf(restrict, model(relation("set null")))[1]).toMatch(/on delete set null;$/);
  });

  it("refuses on delete set null on a field that may not be null", () => {
    expect(() =>
      model(
        {
          owner_id: {
            type: "string",
            format: "uuid",
            "x-relation": { resource: "owners", labelField: "name", onDelete: "set null" },
          },
        },
        { required: ["title", "owner_id"] },
      ),
    ).toThrow(/needs a field that may be null/);
  });

  it("clears only the field, not its scope, when a scoped relation's target goes", () => {
    const m = model({
      shelf_id: { type: "string", format: "uuid", "x-relation": { resource: "shelves", labelField: "name" } },
      bin_id: {
        type: "string",
        format: "uuid",
        "x-relation": { resource: "bins", labelField: "name", within: "shelf_id", onDelete: "set null" },
      },
    });
    const scoped = m.foreignKeys.find((k) => k.name === "widgets_bin_id_shelf_id_fkey");
    expect(scoped).toMatchObject({ onDelete: "set null", setNull: ["bin_id"] });
    expect(alterSql(diff({ ...m, foreignKeys: [], indexes: [] }, m))).toContain(
      "foreign key (bin_id, shelf_id) references bins (id, shelf_id) on delete set null (bin_id);",
    );
  });

  it("changes a column's type for review, its default set again after", () => {
    const [step] = diff(model({ weight: { type: "integer" } }), model({ weight: { type: "number" } }));
    expect(step.sql).toBe(
      "alter table widgets alter column weight type double precision using weight::double precision;",
    );
    expect(step.review).toMatch(/changes type from integer to double precision/);
    const steps = sqlOf(
      model({ level: { type: "integer", default: 1 } }),
      model({ level: { type: "string", default: "1" } }),
    );
    expect(steps).toEqual([
      "alter table widgets alter column level drop default;",
      "alter table widgets alter column level type text using level::text;",
      "alter table widgets alter column level set default '1';",
    ]);
  });

  it("indexes a field that became filterable, and drops the index when it no longer is", () => {
    const plain = model({ size: { type: "integer" } });
    const filtered = model({ size: { type: "integer" } }, { "x-filterable": ["size"] });
    expect(sqlOf(plain, filtered)).toEqual(["create index widgets_size_idx on widgets (size);"]);
    expect(sqlOf(filtered, plain)).toEqual(["drop index widgets_size_idx;"]);
  });

  it("drops before it adds, and writes each review note above its statement", () => {
    const before = model({ old: { type: "string" } });
    const after = model({ fresh: { type: "string", maxLength: 5 } });
    const text = alterSql(diff(before, after)).split("\n");
    expect(text).toEqual([
      expect.stringMatching(/^-- review: drops old/),
      "alter table widgets drop column old;",
      "alter table widgets add column fresh text;",
      expect.stringMatching(/^-- review: existing rows/),
      "alter table widgets add constraint widgets_fresh_check check (char_length(fresh) <= 5);",
    ]);
  });
});
