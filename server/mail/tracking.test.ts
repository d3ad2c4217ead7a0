import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  clickSignature,
  instrumentHtml,
  type LinkSigner,
  linkLabel,
  openSignature,
  redirectTarget,
  sameSignature,
} from "./tracking";

const signer = (secret: string): LinkSigner => ({
  mac: (purpose, data) => createHmac("sha256", secret).update(`${purpose}:${data}`).digest("base64url"),
});
const ID = "0b9d3f0e-8c4a-4f57-9a43-2a1f3c1b7e11";
const target = { baseUrl: "https://crm.example", signer: signer("s3cret"), messageId: ID };

describe("signatures", () => {
  it("sign the mail and the link together, and differ by secret, mail, link and purpose", () => {
    const s = signer("s3cret");
    const sig = clickSignature(s, ID, "https://example.com/a");
    expect(sameSignature(sig, clickSignature(s, ID, "https://example.com/a"))).toBe(true);
    for (const other of [
      clickSignature(signer("other"), ID, "https://example.com/a"),
      clickSignature(s, ID.replace("0b", "0c"), "https://example.com/a"),
      clickSignature(s, ID, "https://example.com/b"),
      openSignature(s, ID),
    ])
      expect(sameSignature(sig, other)).toBe(false);
  });
});

describe("instrumentHtml", () => {
  it("sends web links through signed addresses, leaves others, and adds the pixel", () => {
    const html = instrumentHtml(
      `<p><a class="x" href="https://example.com/p?a=1&amp;b=2">P</a> <a href='mailto:a@example.com'>M</a> <a href="#top">T</a></p>`,
      target,
    );
    const click = `https://crm.example/public/mail/${ID}/click?u=${encodeURIComponent("https://example.com/p?a=1&b=2")}&amp;s=${clickSignature(target.signer, ID, "https://example.com/p?a=1&b=2")}`;
    expect(html).toBe(
      `<p><a class="x" href="${click}">P</a> <a href='mailto:a@example.com'>M</a> <a href="#top">T</a></p>` +
        `<img src="https://crm.example/public/mail/${ID}/open.gif?s=${openSignature(target.signer, ID)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0">`,
    );
  });

  it("puts the pixel inside the body of a whole document", () => {
    expect(instrumentHtml("<html><body><p>Hi</p></body></html>", target)).toMatch(
      /<p>Hi<\/p><img src="[^"]+open\.gif\?s=[\w-]+"[^>]*><\/body><\/html>$/,
    );
  });
});

describe("redirectTarget", () => {
  it("takes absolute web addresses only, without credentials", () => {
    expect(redirectTarget("https://example.com/a?b=1")?.href).toBe("https://example.com/a?b=1");
    for (const bad of [
      "javascript:alert(1)",
      "//evil.example/",
      "/relative",
      "https://bank.example@evil.example/",
      "data:text/html,hi",
      `https://example.com/${"a".repeat(2001)}`,
    ])
      expect(redirectTarget(bad)).toBeNull();
  });
});

describe("linkLabel", () => {
  it("reads as host and path", () => {
    expect(linkLabel("https://www.example.com/pricing/?utm_source=mail")).toBe("example.com/pricing");
    expect(linkLabel("http://example.com")).toBe("example.com");
  });
});
