import { describe, expect, it } from "vitest";
import { normalizeDmy } from "./date-input";
import { EMBED_MESSAGES, embedMessage, formsBaseOf } from "./embed-protocol";

describe("formsBaseOf: where the embed script finds the forms", () => {
  const page = "https://shop.example/contact";

  it("is the folder the script was loaded from", () => {
    expect(formsBaseOf({ src: "https://f.example.com/forms/embed.js" }, page)).toBe(
      "https://f.example.com/forms",
    );
    expect(formsBaseOf({ src: "https://f.example.com/embed.js" }, page)).toBe("https://f.example.com");
  });

  it("is /forms on the script's origin for a copy loaded from the build's assets", () => {
    expect(formsBaseOf({ src: "https://f.example.com/manage/assets/embed.js" }, page)).toBe(
      "https://f.example.com/forms",
    );
  });

  it("is the script tag's data-base when it has one", () => {
    expect(
      formsBaseOf({ src: "https://cdn.example/embed.js", base: "https://f.example.com/forms/" }, page),
    ).toBe("https://f.example.com/forms");
  });

  it("is /forms on the page's origin when the script's address is unknown", () => {
    expect(formsBaseOf(null, page)).toBe("https://shop.example/forms");
    expect(formsBaseOf({ src: "" }, page)).toBe("https://shop.example/forms");
  });
});

describe("embedMessage", () => {
  it("takes a message of this protocol of the type asked, nothing else", () => {
    const height = { type: EMBED_MESSAGES.height, slug: "c", height: 320 };
    expect(embedMessage(height, EMBED_MESSAGES.height)).toBe(height);
    expect(embedMessage(height, EMBED_MESSAGES.ready)).toBeNull();
    expect(embedMessage("atelier-form:height", EMBED_MESSAGES.height)).toBeNull();
    expect(embedMessage(null, EMBED_MESSAGES.height)).toBeNull();
  });
});

describe("normalizeDmy: what a digit keypad can type, read day-month-year", () => {
  it("reads eight digits as DDMMYYYY", () => {
    expect(normalizeDmy("31122025")).toBe("31-12-2025");
  });

  it("makes slashes, dots and spaces dashes", () => {
    expect(normalizeDmy("5/3/2024")).toBe("5-3-2024");
    expect(normalizeDmy(" 5.3.2024 ")).toBe("5-3-2024");
    expect(normalizeDmy("05 03 2024")).toBe("05-03-2024");
  });

  it("leaves anything else as typed (trimmed), for the check to explain", () => {
    expect(normalizeDmy("2024-03-05")).toBe("2024-03-05");
    expect(normalizeDmy("tomorrow ")).toBe("tomorrow");
    expect(normalizeDmy("123")).toBe("123");
  });
});
