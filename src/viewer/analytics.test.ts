import { describe, expect, it, vi } from "vitest";
import { isVisitorId, newVisitorId, searchedWords, sendEvent, VISITOR_KEY, visitorId } from "./analytics";

describe("visitor id", () => {
  it("is a UUID without dashes, which the events endpoint accepts", () => {
    const id = newVisitorId();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(isVisitorId(id)).toBe(true);
    expect(newVisitorId()).not.toBe(id);
  });

  it("is made from random bytes where randomUUID is missing (pages not served securely)", () => {
    const id = newVisitorId({ getRandomValues: <T extends ArrayBufferView | null>(a: T) => a });
    expect(id).toBe("0".repeat(32));
  });

  it("is made once and then kept", () => {
    const items = new Map<string, string>();
    const storage = {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
    };
    const first = visitorId(storage);
    expect(items.get(VISITOR_KEY)).toBe(first);
    expect(visitorId(storage)).toBe(first);
  });

  it("replaces a stored value the endpoint would refuse", () => {
    const items = new Map([[VISITOR_KEY, "bad id!"]]);
    const storage = {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
    };
    const id = visitorId(storage, () => "fresh-visitor-1");
    expect(id).toBe("fresh-visitor-1");
    expect(items.get(VISITOR_KEY)).toBe("fresh-visitor-1");
  });

  it("works without storage", () => {
    const denied = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    };
    expect(isVisitorId(visitorId(denied))).toBe(true);
    expect(isVisitorId(visitorId(null))).toBe(true);
  });

  it("accepts only 8 to 64 letters, digits, _ and -", () => {
    expect(isVisitorId("abcd-123")).toBe(true);
    expect(isVisitorId("short")).toBe(false);
    expect(isVisitorId("a".repeat(65))).toBe(false);
    expect(isVisitorId(42)).toBe(false);
  });
});

describe("searchedWords", () => {
  it("records the words typed, tidied", () => {
    expect(searchedWords("  brass   lamp ")).toBe("brass lamp");
    expect(searchedWords("   ")).toBeNull();
    expect(searchedWords("x".repeat(150))).toHaveLength(100);
  });
});

describe("sendEvent (spec §8: analytics failures are swallowed)", () => {
  it("posts the event with the visitor id", () => {
    const send = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    sendEvent({ pdfId: "p", type: "click", page: 2, linkId: "l" }, "visitor-1", send);
    expect(send).toHaveBeenCalledWith(
      "/public/events",
      expect.objectContaining({
        method: "POST",
        keepalive: true,
        body: JSON.stringify({ pdfId: "p", type: "click", page: 2, linkId: "l", visitorId: "visitor-1" }),
      }),
    );
  });

  it("never throws, whether the call rejects or throws at once", async () => {
    const rejecting = vi.fn().mockRejectedValue(new TypeError("offline"));
    expect(() => sendEvent({ pdfId: "p", type: "view" }, "visitor-1", rejecting)).not.toThrow();
    const throwing = vi.fn(() => {
      throw new Error("boom");
    });
    expect(() => sendEvent({ pdfId: "p", type: "view" }, "visitor-1", throwing)).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
});
