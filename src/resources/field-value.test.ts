/**
 * How the list and the show page write each kind of value: dates in the one display format
 * (DD-MM-YYYY, DD-MM-YYYY HH:mm in local time, HH:mm), addresses as links. Rendered to HTML
 * on the server side of React, without a browser.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { specimens } from "../../tests/fixtures/every-field-type";
import { filterControls, listColumns, titleWidth } from "./columns";
import { FieldValue } from "./field-value";
import { fieldKind } from "./fields";

const schema = specimens.schema;
const html = (field: string, value: unknown, variant: "cell" | "detail" = "detail") =>
  renderToStaticMarkup(createElement(FieldValue, { schema, field, record: { [field]: value }, variant }));
const text = (field: string, value: unknown, variant?: "cell" | "detail") =>
  html(field, value, variant).replace(/<[^>]+>/g, "");

function inZone<T>(zone: string, body: () => T): T {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return body();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

describe("field kinds of every type and format", () => {
  it("reads the kind from the base type of a nullable field and from the format", () => {
    const kinds = Object.fromEntries(Object.keys(schema.properties).map((f) => [f, fieldKind(schema, f)]));
    expect(kinds).toMatchObject({
      note: "text",
      grade: "enum",
      weight: "integer",
      sealed: "boolean",
      contact: "email",
      homepage: "url",
      tracking_id: "id",
      born_on: "date",
      starts_at: "datetime",
      opens_at: "time",
    });
  });

  it("filters days, instants and times of day by range", () => {
    expect(filterControls(specimens).map((c) => `${c.field}:${c.kind}`)).toEqual([
      "grade:select",
      "born_on:date-range",
      "starts_at:date-range",
      "opens_at:time-range",
      "contact:text",
      "weight:number-range",
    ]);
    const granularity = Object.fromEntries(
      filterControls(specimens).flatMap((c) => (c.kind === "date-range" ? [[c.field, c.granularity]] : [])),
    );
    expect(granularity).toEqual({ born_on: "day", starts_at: "instant" });
    // A time of day needs 90 px; its title with the sort arrows needs more.
    expect(listColumns(specimens).find((c) => c.field === "opens_at")).toMatchObject({
      kind: "time",
      width: titleWidth("Opens at", true),
    });
  });
});

describe("values on the list and the show page", () => {
  it("shows a day as DD-MM-YYYY, the same on both sides of Greenwich", () => {
    for (const zone of ["Pacific/Kiritimati", "Pacific/Pago_Pago"]) {
      expect(inZone(zone, () => text("born_on", "2024-03-05"))).toBe("05-03-2024");
    }
    expect(html("born_on", "2024-03-05")).toMatch(/datetime="2024-03-05"/i);
  });

  it("shows an instant as DD-MM-YYYY HH:mm in local time", () => {
    expect(inZone("Asia/Kolkata", () => text("starts_at", "2024-03-05T20:45:00.000Z"))).toBe(
      "06-03-2024 02:15",
    );
    expect(inZone("UTC", () => text("starts_at", "2024-03-05T20:45:00.000Z", "cell"))).toBe(
      "05-03-2024 20:45",
    );
  });

  it("shows a time of day as HH:mm", () => {
    expect(text("opens_at", "09:05:00")).toBe("09:05");
  });

  it("links email and web addresses, but only http(s) ones", () => {
    expect(html("contact", "ada@example.com")).toContain('href="mailto:ada@example.com"');
    const web = html("homepage", "https://example.com/a");
    expect(web).toContain('href="https://example.com/a"');
    expect(web).toContain('rel="noopener noreferrer"');
    const script = html("homepage", "javascript:alert(1)");
    expect(script).not.toContain("href");
    expect(script).toContain("javascript:alert(1)");
  });

  it("shows an empty value as a dash, a cleared nullable one included", () => {
    expect(text("note", null)).toBe("—");
    expect(text("grade", null)).toBe("—");
    expect(text("grade", "b")).toBe("Grade B");
  });
});

describe("nested values (CMS components and blocks)", () => {
  const blockSchema = {
    ...schema,
    properties: {
      ...schema.properties,
      seo: {
        type: "object",
        title: "SEO",
        properties: { meta_title: { type: "string", title: "Page title" } },
      },
      blocks: {
        type: "array",
        title: "Blocks",
        items: {
          oneOf: [
            {
              title: "Hero",
              properties: { __component: { const: "hero" }, heading: { type: "string", title: "Heading" } },
            },
            {
              title: "Quote",
              properties: { __component: { const: "quote" }, said: { type: "string", title: "Quote text" } },
            },
          ],
        },
      },
    },
  } as unknown as typeof schema;
  const shown = (field: string, value: unknown) =>
    renderToStaticMarkup(
      createElement(FieldValue, {
        schema: blockSchema,
        field,
        record: { [field]: value },
        variant: "detail",
      }),
    ).replace(/<[^>]+>/g, "|");

  it("names parts by their labels and blocks by their kind and number, never by keys", () => {
    expect(shown("seo", { meta_title: "Spring" })).toContain("Page title: Spring");
    const blocks = shown("blocks", [
      { __component: "hero", heading: "Big news" },
      { __component: "quote", said: "Nice" },
    ]);
    expect(blocks).toContain("Hero — 1: Heading: Big news");
    expect(blocks).toContain("Quote — 2: Quote text: Nice");
    expect(blocks).not.toMatch(/meta_title|__component|Blocks-1/);
  });
});
