import { describe, expect, it } from "vitest";
import { MemoryStorage } from "../lib/memory-storage";
import {
  asFirstTouch,
  FIRST_TOUCH_KEY,
  firstTouchAllowed,
  pageTracking,
  readFirstTouch,
  rememberFirstTouch,
  urlParameters,
  visitTouch,
} from "./tracking";

const NAMES = ["utm_source", "utm_medium", "gclid"];
const LANDING = "https://shop.example/spring?utm_source=news&utm_medium=mail&utm_id=7&gclid=abc&q=shoes";

describe("the tracked parameters of a page", () => {
  it("keeps the form's tracked names only, the first of a repeated one", () => {
    expect(urlParameters(`${LANDING}&utm_source=second`, NAMES)).toEqual({
      utm_source: "news",
      utm_medium: "mail",
      gclid: "abc",
    });
  });

  it("keeps every utm_ parameter too for the first touch", () => {
    expect(urlParameters(LANDING, NAMES, true)).toMatchObject({ utm_id: "7" });
    expect(urlParameters(LANDING, NAMES, true)).not.toHaveProperty("q");
  });

  it("reads nothing from an address that is not one", () => {
    expect(urlParameters("not a url", NAMES)).toEqual({});
  });

  it("an answer's tracking: parameters, landing page and referrer", () => {
    expect(pageTracking({ href: LANDING, referrer: "https://news.example/" }, NAMES)).toEqual({
      parameters: { utm_source: "news", utm_medium: "mail", gclid: "abc" },
      landingPage: LANDING,
      referrer: "https://news.example/",
    });
  });

  it("cuts very long addresses and values (a submission is limited in size)", () => {
    const long = `https://a.example/?utm_source=${"x".repeat(5000)}`;
    const t = pageTracking({ href: long, referrer: long }, NAMES);
    expect(t.landingPage).toHaveLength(2000);
    expect(t.referrer).toHaveLength(2000);
    expect(t.parameters.utm_source).toHaveLength(500);
  });
});

describe("the first touch", () => {
  const visit = visitTouch(
    { href: LANDING, referrer: "https://news.example/" },
    NAMES,
    new Date("2025-03-01T10:00:00Z"),
  );

  it("is kept when the form says on, or consent and the visitor consented; never when off", () => {
    expect(firstTouchAllowed("on", false)).toBe(true);
    expect(firstTouchAllowed("consent", false)).toBe(false);
    expect(firstTouchAllowed("consent", true)).toBe(true);
    expect(firstTouchAllowed("off", true)).toBe(false);
  });

  it("records the visit's parameters, landing page, referrer and time", () => {
    expect(visit).toEqual({
      parameters: { utm_source: "news", utm_medium: "mail", utm_id: "7", gclid: "abc" },
      landingPage: LANDING,
      referrer: "https://news.example/",
      at: "2025-03-01T10:00:00.000Z",
    });
  });

  it("is stored once and never overwritten by a later visit", () => {
    const storage = new MemoryStorage();
    expect(rememberFirstTouch(storage, visit)).toEqual(visit);
    const later = visitTouch(
      { href: "https://shop.example/?utm_source=ads", referrer: "" },
      NAMES,
      new Date(),
    );
    expect(rememberFirstTouch(storage, later)).toEqual(visit);
    expect(JSON.parse(storage.getItem(FIRST_TOUCH_KEY) ?? "null")).toEqual(visit);
  });

  it("a visit without parameters is a first touch too", () => {
    const storage = new MemoryStorage();
    const direct = visitTouch({ href: "https://shop.example/", referrer: "" }, NAMES, new Date(0));
    expect(rememberFirstTouch(storage, direct).parameters).toEqual({});
    expect(rememberFirstTouch(storage, visit)).toEqual(direct);
  });

  it("is still sent when the browser refuses storage, and a broken stored value is replaced", () => {
    const refusing = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(rememberFirstTouch(refusing, visit)).toEqual(visit);
    expect(rememberFirstTouch(null, visit)).toEqual(visit);
    const storage = new MemoryStorage();
    storage.setItem(FIRST_TOUCH_KEY, "{not json");
    expect(readFirstTouch(storage)).toBeNull();
    expect(rememberFirstTouch(storage, visit)).toEqual(visit);
  });

  it("takes only a well-formed first touch from a message or storage", () => {
    expect(asFirstTouch(visit)).toEqual(visit);
    expect(asFirstTouch(null)).toBeNull();
    expect(asFirstTouch({ ...visit, landingPage: 3 })).toBeNull();
    expect(asFirstTouch({ ...visit, parameters: ["a"] })).toBeNull();
    expect(asFirstTouch({ ...visit, parameters: { a: "1", b: 2 } })?.parameters).toEqual({ a: "1" });
  });
});
