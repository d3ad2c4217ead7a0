import { describe, expect, it } from "vitest";
import { attrs, escapeHtml, tag } from "./html";

describe("escapeHtml", () => {
  it("writes the five characters that could end text or an attribute as entities", () => {
    expect(escapeHtml(`<b>"Tom" & 'Jerry'</b>`)).toBe(
      "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;",
    );
  });

  it("turns hostile text into inert text", () => {
    const hostile = `"><img src=x onerror="alert(1)"><script>alert(2)</script>`;
    const out = escapeHtml(hostile);
    expect(out).not.toMatch(/[<>"']/);
    expect(out).toBe(
      "&quot;&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;",
    );
  });

  it("escapes an entity as it is typed, so it shows as typed", () => {
    expect(escapeHtml("&lt;")).toBe("&amp;lt;");
  });

  it("writes numbers as text and nothing for null or undefined", () => {
    expect(escapeHtml(12)).toBe("12");
    expect(escapeHtml(null)).toBe("");
    expect(escapeHtml(undefined)).toBe("");
  });
});

describe("attrs", () => {
  it("writes text and numbers quoted and escaped, true as a bare attribute, and leaves the rest out", () => {
    expect(
      attrs({
        type: "text",
        value: `a"b`,
        maxlength: 5,
        required: true,
        hidden: false,
        placeholder: undefined,
      }),
    ).toBe(' type="text" value="a&quot;b" maxlength="5" required');
  });

  it("leaves out numbers that are not finite", () => {
    expect(attrs({ min: Number.NaN, max: Number.POSITIVE_INFINITY })).toBe("");
  });

  it("an element escapes its attributes, not its (already safe) content", () => {
    expect(tag("p", { title: "<x>" }, "<b>ok</b>")).toBe('<p title="&lt;x&gt;"><b>ok</b></p>');
  });
});
