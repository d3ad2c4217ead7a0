import type { LiveEvent } from "@refinedev/core";
import { describe, expect, it } from "vitest";
import { channelOfResource, idsOfParams, resourceOfChannel, shouldDeliver, toLiveEvent } from "./live-client";

const event = (type: string, ids: Array<string | number>): LiveEvent => ({
  channel: "resources/products",
  type,
  payload: { ids },
  date: new Date(0),
});

describe("live provider mapping", () => {
  it("maps Refine resource channels to resource names and back", () => {
    expect(resourceOfChannel("resources/products")).toBe("products");
    expect(resourceOfChannel("resources/sub-categories")).toBe("sub-categories");
    expect(channelOfResource("sub-categories")).toBe("resources/sub-categories");
    // Refine builds `resources/${resource?.name}` before the resource is known.
    expect(resourceOfChannel("resources/")).toBeNull();
    expect(resourceOfChannel("resources/undefined")).toBeNull();
    expect(resourceOfChannel("uploads/42")).toBeNull();
  });

  it("turns a change message into a Refine live event", () => {
    const date = new Date("2025-01-02T03:04:05Z");
    const message = { resource: "sub-categories", type: "deleted" as const, ids: ["a", "b"] };
    expect(toLiveEvent(message, date)).toEqual({
      channel: "resources/sub-categories",
      type: "deleted",
      payload: { ids: ["a", "b"] },
      date,
    });
    expect(toLiveEvent(message).date).toBeInstanceOf(Date);
    // The event owns its ids: a callback changing them does not touch the message.
    (toLiveEvent(message).payload.ids as string[]).push("c");
    expect(message.ids).toEqual(["a", "b"]);
  });

  it("reads the records a subscription is about from Refine's params", () => {
    expect(idsOfParams(undefined)).toEqual([]);
    expect(idsOfParams({ ids: [] })).toEqual([]);
    expect(idsOfParams({ ids: [1, "b"] })).toEqual(["1", "b"]);
    expect(idsOfParams({ ids: [], id: 7 })).toEqual(["7"]);
  });

  it("delivers by event type, `*` meaning every type", () => {
    expect(shouldDeliver({ types: ["*"], ids: [] }, event("created", ["1"]))).toBe(true);
    expect(shouldDeliver({ types: ["updated", "deleted"], ids: [] }, event("deleted", ["1"]))).toBe(true);
    expect(shouldDeliver({ types: ["updated"], ids: [] }, event("created", ["1"]))).toBe(false);
  });

  it("delivers a record subscription only events naming one of its records", () => {
    const one = { types: ["*"], ids: ["7"] };
    expect(shouldDeliver(one, event("updated", ["3", "7"]))).toBe(true);
    expect(shouldDeliver(one, event("updated", [7]))).toBe(true);
    expect(shouldDeliver(one, event("updated", ["3"]))).toBe(false);
    expect(shouldDeliver(one, { ...event("updated", []), payload: {} })).toBe(false);
    expect(shouldDeliver({ types: ["*"], ids: [] }, { ...event("updated", []), payload: {} })).toBe(true);
  });
});
