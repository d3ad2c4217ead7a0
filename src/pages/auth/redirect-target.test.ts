import { describe, expect, it } from "vitest";
import { redirectTarget } from "./redirect-target";

describe("redirectTarget", () => {
  it("returns the ?to= path written by CatchAllNavigate", () => {
    expect(redirectTarget("?to=%2Fusers%3Fpage%3D2", null)).toBe("/users?page=2");
  });

  it("falls back to router state, then home", () => {
    expect(redirectTarget("", { from: "/crm" })).toBe("/crm");
    expect(redirectTarget("", null)).toBe("/");
  });

  it("refuses other origins and the login page itself", () => {
    expect(redirectTarget("?to=https%3A%2F%2Fevil.example", null)).toBe("/");
    expect(redirectTarget("?to=%2F%2Fevil.example", null)).toBe("/");
    expect(redirectTarget("?to=%2Flogin", null)).toBe("/");
  });
});
