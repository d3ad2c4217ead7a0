import { describe, expect, it } from "vitest";
import {
  BUTTON_COLOURS,
  BUTTON_ICONS,
  BUTTON_SIZES,
  COMMERCE_PLATFORM_ID,
  DEFAULT_CURRENCY,
  DEFAULT_PAGE,
  DEFAULT_PAGE_SIZE,
  DISCOUNT_OPTIONS,
  LINK_KINDS,
  linkKindOf,
  OFFLINE_MESSAGE,
  ONLINE_MESSAGE,
  ONLINE_TOAST_MS,
  SCRIPT_LOAD_TIMEOUT_MS,
  TOAST_AUTO_CLOSE_MS,
  UNABLE_TO_REFRESH,
} from "./constants";

describe("spec §9 constants", () => {
  it("has the exact scalar values", () => {
    expect({
      DEFAULT_CURRENCY,
      DEFAULT_PAGE,
      DEFAULT_PAGE_SIZE,
      TOAST_AUTO_CLOSE_MS,
      ONLINE_TOAST_MS,
      SCRIPT_LOAD_TIMEOUT_MS,
      OFFLINE_MESSAGE,
      ONLINE_MESSAGE,
      UNABLE_TO_REFRESH,
      COMMERCE_PLATFORM_ID,
    }).toEqual({
      DEFAULT_CURRENCY: "INR",
      DEFAULT_PAGE: 0,
      DEFAULT_PAGE_SIZE: 10,
      TOAST_AUTO_CLOSE_MS: 2000,
      ONLINE_TOAST_MS: 2000,
      SCRIPT_LOAD_TIMEOUT_MS: 120000,
      OFFLINE_MESSAGE: "You are offline",
      ONLINE_MESSAGE: "You are online",
      UNABLE_TO_REFRESH: "Unable to refresh token",
      COMMERCE_PLATFORM_ID: 13,
    });
  });

  it("has the discount options in order", () => {
    expect(DISCOUNT_OPTIONS).toEqual([
      { value: 1, label: "Product discount" },
      { value: 2, label: "Total discount" },
      { value: 3, label: "No discount" },
    ]);
  });

  it("has five button icons, three sizes and four colours", () => {
    expect(BUTTON_ICONS.map((o) => o.label)).toEqual(["External Link", "Play", "Add-1", "Add-2", "Add-3"]);
    expect(BUTTON_SIZES.map((o) => o.value)).toEqual(["sm", "md", "lg"]);
    expect(BUTTON_COLOURS.map((o) => o.label)).toEqual(["Primary", "Secondary", "Tertiary", "Forth"]);
  });

  it("has the link kinds, with addProduct as an alias of addProductDetails", () => {
    expect(LINK_KINDS.map((k) => k.value)).toEqual([
      "pageLink",
      "link",
      "video",
      "iframe",
      "text",
      "addProductDetails",
    ]);
    expect(linkKindOf("video")?.label).toBe("YouTube");
    expect(linkKindOf("text")?.label).toBe("Custom Text");
    expect(linkKindOf("addProduct")).toBe(linkKindOf("addProductDetails"));
    expect(linkKindOf("addProduct")?.label).toBe("Add Product");
    expect(linkKindOf("nope")).toBeUndefined();
  });

  it("has unique values in every option list", () => {
    for (const list of [DISCOUNT_OPTIONS, BUTTON_ICONS, BUTTON_SIZES, BUTTON_COLOURS, LINK_KINDS]) {
      const values = list.map((o) => o.value);
      expect(new Set(values).size).toBe(values.length);
    }
  });
});
