import { describe, expect, it } from "vitest";
import { decodeEntities, htmlToText, textToHtml } from "./html-text";

describe("htmlToText", () => {
  it("puts blocks on their own lines and lists as dashes", () => {
    expect(
      htmlToText(
        "<h2>Offer</h2><p>Hi <strong>Ann</strong>,<br>two   things:</p><ul><li><p>One</p></li><li>Two</li></ul><p>Bye</p>",
      ),
    ).toBe("Offer\n\nHi Ann,\ntwo things:\n\n- One\n- Two\n\nBye");
  });

  it("writes a link's address after its words, once", () => {
    expect(htmlToText('<p><a href="https://x.example/a?b=1&amp;c=2">the offer</a></p>')).toBe(
      "the offer (https://x.example/a?b=1&c=2)",
    );
    expect(htmlToText('<a href="https://x.example">https://x.example</a>')).toBe("https://x.example");
    expect(htmlToText('<a href="mailto:a@x.example">write</a>')).toBe("write (a@x.example)");
  });

  it("decodes entities and drops what is not text", () => {
    expect(htmlToText("<style>p{}</style><p>Rao &amp; Sons &lt;3 &#8212; &#x2713;&nbsp;ok</p>")).toBe(
      "Rao & Sons <3 — ✓ ok",
    );
  });

  it("reads source line breaks as spaces, as a browser does", () => {
    expect(htmlToText("<p>one\n  two</p>")).toBe("one two");
  });
});

describe("decodeEntities", () => {
  it("leaves what it does not know", () => {
    expect(decodeEntities("&bogus; &#0; &amp")).toBe("&bogus; &#0; &amp");
  });
});

describe("textToHtml", () => {
  it("escapes the text, makes paragraphs of blank-line blocks and <br> of other breaks", () => {
    expect(textToHtml("Hi <Ann> & co,\r\nthanks.\n\n\n  Bye  \n")).toBe(
      "<p>Hi &lt;Ann&gt; &amp; co,<br>thanks.</p><p>Bye</p>",
    );
    expect(textToHtml("  \n ")).toBe("");
  });

  it("makes web addresses links, leaving the punctuation after them outside", () => {
    expect(textToHtml("Prices: https://example.com/p?a=1&b=2. Or (http://x.example/)!")).toBe(
      '<p>Prices: <a href="https://example.com/p?a=1&amp;b=2">https://example.com/p?a=1&amp;b=2</a>. Or (<a href="http://x.example/">http://x.example/</a>)!</p>',
    );
    expect(htmlToText(textToHtml("See https://example.com/a."))).toBe("See https://example.com/a.");
  });

  it("reads back as the same text", () => {
    const text = "Hi Asha from Kite Labs,\nglad you came.\n\nSee you <soon>";
    expect(htmlToText(textToHtml(text))).toBe(text);
  });
});
