import { describe, expect, it } from "vitest";
import {
  orderedParameters,
  otherAnswers,
  readTracking,
  submissionFiles,
  webAddress,
} from "./submissions-format";

describe("readTracking", () => {
  it("reads what the server stored, text only", () => {
    expect(
      readTracking({
        parameters: { utm_source: "news", gclid: "", n: 3, bad: { x: 1 } },
        firstTouch: {
          parameters: { utm_source: "ads" },
          landingPage: "https://a.example/",
          referrer: "",
          at: "2026-03-01T10:00:00Z",
        },
        referrer: "https://b.example/",
        landingPage: "https://a.example/form",
        userAgent: "Mozilla/5.0",
      }),
    ).toEqual({
      parameters: { utm_source: "news", n: "3" },
      firstTouch: {
        parameters: { utm_source: "ads" },
        landingPage: "https://a.example/",
        referrer: "",
        at: "2026-03-01T10:00:00Z",
      },
      referrer: "https://b.example/",
      landingPage: "https://a.example/form",
      userAgent: "Mozilla/5.0",
    });
  });

  it("has no first touch when none was kept, and nothing without tracking", () => {
    expect(readTracking({ parameters: {}, firstTouch: null })?.firstTouch).toBeNull();
    expect(readTracking(undefined)).toBeNull();
    expect(readTracking("x")).toBeNull();
  });
});

describe("orderedParameters", () => {
  it("puts the utm parameters in the spec's order, then the custom ones by name", () => {
    expect(
      orderedParameters({ gclid: "g", utm_content: "c", fbclid: "f", utm_medium: "m", utm_source: "s" }).map(
        ([k]) => k,
      ),
    ).toEqual(["utm_source", "utm_medium", "utm_content", "fbclid", "gclid"]);
  });
});

describe("otherAnswers", () => {
  it("keeps answers to fields the form no longer has, never the submission's own keys", () => {
    const row = {
      id: "1",
      created_at: "2026-03-01T10:00:00Z",
      version: 2,
      tracking: {},
      utm_source: "news",
      utm_medium: "",
      utm_campaign: "",
      referrer: "",
      files: [],
      email: "a@b.c",
      company: "Acme",
      blank: "",
    };
    expect(otherAnswers(row, [{ id: "email" }])).toEqual([["company", "Acme"]]);
  });
});

describe("webAddress", () => {
  it("links web addresses only", () => {
    expect(webAddress("https://example.com/a?b=1")).toBe("https://example.com/a?b=1");
    expect(webAddress("HTTP://example.com")).toBe("http://example.com/");
    expect(webAddress("javascript:alert(1)")).toBeNull();
    expect(webAddress("https://")).toBeNull();
    expect(webAddress("")).toBeNull();
  });
});

describe("submissionFiles", () => {
  it("finds a row's files by token, leaving out odd addresses", () => {
    const files = submissionFiles({
      files: [
        { id: "t1", field: "cv", name: "cv.pdf", type: "application/pdf", size: 10, url: "/assets/forms/t1" },
        { id: "t2", url: "https://cdn.example/t2" },
        { id: "t3", name: "x", url: "javascript:alert(1)" },
        "junk",
      ],
    });
    expect([...files.values()]).toEqual([
      { token: "t1", name: "cv.pdf", url: "/assets/forms/t1" },
      { token: "t2", name: "t2", url: "https://cdn.example/t2" },
    ]);
    expect(submissionFiles({}).size).toBe(0);
  });
});
