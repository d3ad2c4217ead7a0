import { describe, expect, it } from "vitest";
import { toUserWrite } from "./user-form";

describe("toUserWrite", () => {
  const base = {
    first_name: " Ada ",
    last_name: "Lovelace ",
    email: " ada@example.com",
    role: 3 as const,
    modules: [5],
  };

  it("trims text and drops an empty password and plan", () => {
    expect(toUserWrite({ ...base, password: "", plan_type: " ", active: false })).toEqual({
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.com",
      role: 3,
      active: false,
      modules: [5],
    });
  });

  it("keeps a new password and the plan", () => {
    expect(toUserWrite({ ...base, password: "long enough", plan_type: "pro" })).toMatchObject({
      password: "long enough",
      plan_type: "pro",
      active: true,
    });
  });
});
