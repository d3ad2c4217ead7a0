import { describe, expect, it, vi } from "vitest";
import { LINK_KINDS } from "../../schemas/pdf-library";
import type { PublicLink, PublicProduct } from "./api";
import {
  HOTSPOT_ACTIONS,
  HOTSPOT_NAMES,
  type HotspotContext,
  hotspotName,
  iframeSandbox,
  linksOfPage,
  runHotspot,
  webUrl,
  youtubeEmbedUrl,
} from "./hotspots";

const lamp: PublicProduct = {
  id: "p1",
  name: "Brass lamp",
  sku_code: "LMP-7",
  price: 49,
  currency: "INR",
  description: null,
  image: null,
};
const products = { [lamp.id]: lamp };

const link = (kind: PublicLink["kind"], target: PublicLink["target"], page = 1): PublicLink => ({
  id: `${kind}-${page}`,
  page,
  x: 0.1,
  y: 0.1,
  w: 0.2,
  h: 0.1,
  kind,
  target,
  button: null,
});

const context = () => {
  const ctx = {
    products,
    goTo: vi.fn(),
    openUrl: vi.fn(),
    showDialog: vi.fn(),
    addProduct: vi.fn(),
    unavailable: vi.fn(),
  } satisfies HotspotContext;
  return ctx;
};

describe("hotspot names", () => {
  it("names every link kind", () => {
    expect(Object.keys(HOTSPOT_NAMES).sort()).toEqual([...LINK_KINDS].sort());
    expect(Object.keys(HOTSPOT_ACTIONS).sort()).toEqual([...LINK_KINDS].sort());
  });

  it.each([
    [link("pageLink", { page: 3 }), "Go to page 3"],
    [link("link", { url: "https://example.com" }), "Open link"],
    [link("video", { youtubeId: "dQw4w9WgXcQ" }), "Play video"],
    [link("iframe", { url: "https://example.com" }), "Show embedded page"],
    [link("text", { text: "Hi" }), "Show text"],
    [link("addProduct", { productId: "p1" }), "Add Brass lamp to cart"],
    [link("addProductDetails", { productId: "p1" }), "See Brass lamp"],
    [link("addProduct", { productId: "gone" }), "Add product to cart"],
  ])("%# names a %s hotspot by what it does", (l, name) => {
    expect(hotspotName(l, products)).toBe(name);
  });
});

describe("what hotspots do", () => {
  it("goes to the page of a page link", () => {
    const ctx = context();
    runHotspot(link("pageLink", { page: 3 }), ctx);
    expect(ctx.goTo).toHaveBeenCalledWith(3);
  });

  it("opens a web link, and refuses any other scheme", () => {
    const ctx = context();
    runHotspot(link("link", { url: "https://example.com/a?b=1" }), ctx);
    expect(ctx.openUrl).toHaveBeenCalledWith("https://example.com/a?b=1");
    runHotspot(link("link", { url: "javascript:alert(1)" }), ctx);
    expect(ctx.openUrl).toHaveBeenCalledTimes(1);
    expect(ctx.unavailable).toHaveBeenCalledWith("This link cannot be opened");
  });

  it("plays a video in the privacy-enhanced YouTube player", () => {
    const ctx = context();
    runHotspot(link("video", { youtubeId: "dQw4w9WgXcQ" }), ctx);
    expect(ctx.showDialog).toHaveBeenCalledWith({
      kind: "video",
      url: "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0",
    });
  });

  it("shows an embedded page, a text (titled by the button's label), a product's details", () => {
    const ctx = context();
    runHotspot(link("iframe", { url: "https://example.com/embed" }), ctx);
    runHotspot(
      {
        ...link("text", { text: "<b>Linen</b>" }),
        button: { icon: "Play", size: "sm", colour: "Primary", label: "Fabrics" },
      },
      ctx,
    );
    runHotspot(link("text", { text: "Plain" }), ctx);
    runHotspot(link("addProductDetails", { productId: "p1" }), ctx);
    expect(ctx.showDialog.mock.calls.map(([d]) => d)).toEqual([
      { kind: "iframe", url: "https://example.com/embed" },
      { kind: "text", title: "Fabrics", text: "<b>Linen</b>" },
      { kind: "text", title: "Note", text: "Plain" },
      { kind: "product", product: lamp },
    ]);
  });

  it("adds a product to the cart, or says it is gone", () => {
    const ctx = context();
    runHotspot(link("addProduct", { productId: "p1" }), ctx);
    expect(ctx.addProduct).toHaveBeenCalledWith(lamp);
    runHotspot(link("addProduct", { productId: "gone" }), ctx);
    runHotspot(link("addProductDetails", {}), ctx);
    expect(ctx.addProduct).toHaveBeenCalledTimes(1);
    expect(ctx.unavailable).toHaveBeenCalledTimes(2);
  });
});

describe("URL safety", () => {
  it("accepts only http and https", () => {
    expect(webUrl("https://example.com")).toBe("https://example.com/");
    expect(webUrl("http://example.com/x")).toBe("http://example.com/x");
    expect(webUrl("javascript:alert(1)")).toBeNull();
    expect(webUrl("data:text/html,hi")).toBeNull();
    expect(webUrl("not a url")).toBeNull();
    expect(webUrl(undefined)).toBeNull();
  });

  it("embeds only well-formed YouTube ids", () => {
    expect(youtubeEmbedUrl("abc_DEF-12")).toBe("https://www.youtube-nocookie.com/embed/abc_DEF-12?rel=0");
    expect(youtubeEmbedUrl("../../x")).toBeNull();
    expect(youtubeEmbedUrl(undefined)).toBeNull();
  });

  it("keeps a same-origin embedded page from lifting its sandbox", () => {
    expect(iframeSandbox("https://example.com/x", "https://shop.test")).toContain("allow-same-origin");
    expect(iframeSandbox("https://shop.test/x", "https://shop.test")).not.toContain("allow-same-origin");
    expect(iframeSandbox("https://shop.test/x", "https://shop.test")).toContain("allow-scripts");
  });
});

it("lists the hotspots of one page", () => {
  const links = [
    link("text", { text: "a" }, 1),
    link("text", { text: "b" }, 2),
    link("link", { url: "https://x.test" }, 1),
  ];
  expect(linksOfPage(links, 1).map((l) => l.id)).toEqual(["text-1", "link-1"]);
});
