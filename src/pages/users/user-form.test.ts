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

describe("toUserWrite with an invitation", () => {
  const base = {
    first_name: "Ivy",
    last_name: "Invitee",
    email: "ivy@example.com",
    role: 3 as const,
    modules: [],
  };

  it("sends invite and no password, even if one was typed before switching", () => {
    const body = toUserWrite({ ...base, passwordMode: "invite", password: "typed-before" });
    expect(body.invite).toBe(true);
    expect(body).not.toHaveProperty("password");
    expect(body).not.toHaveProperty("passwordMode");
  });

  it("sends the password and no invite when setting one", () => {
    const body = toUserWrite({ ...base, passwordMode: "password", password: "Vivid-Lantern-42" });
    expect(body).toMatchObject({ password: "Vivid-Lantern-42" });
    expect(body).not.toHaveProperty("invite");
  });
});
