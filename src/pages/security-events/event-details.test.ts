import { describe, expect, it } from "vitest";
import { describeEvent } from "./event-details";

describe("describeEvent", () => {
  it("names granted and removed modules", () => {
    expect(describeEvent({ type: "grant_changed", details: { added: [1, 8], removed: [2] } })).toBe(
      "Granted: PDF library, Digital assets · Removed: Products",
    );
  });
  it("words roles, reasons, lockouts and devices", () => {
    expect(describeEvent({ type: "role_changed", details: { from: 3, to: 2 } })).toBe("User → Admin");
    expect(describeEvent({ type: "signin_failed", details: { reason: "wrong_password" } })).toBe(
      "wrong password",
    );
    expect(describeEvent({ type: "lockout", details: { action: "signin", scope: "account" } })).toBe(
      "too many sign-in attempts for this account",
    );
    expect(
      describeEvent({ type: "lockout", details: { action: "password_reset_request", scope: "ip" } }),
    ).toBe("too many password reset requests from this IP");
    expect(
      describeEvent({ type: "device_revoked", details: { deviceId: "d1", deviceName: "Mac Safari" } }),
    ).toBe("Mac Safari");
    expect(describeEvent({ type: "password_reset_requested", details: { accountFound: false } })).toBe(
      "no such account",
    );
    expect(describeEvent({ type: "user_enabled", details: {} })).toBe("");
  });

  it("says how a sign-in passed its second step, and the second factor's events", () => {
    expect(
      describeEvent({ type: "signin", details: { deviceName: "Mac Safari", secondFactor: "totp" } }),
    ).toBe("on Mac Safari, with an app code");
    expect(describeEvent({ type: "signin", details: { deviceName: "Mac Safari" } })).toBe("on Mac Safari");
    expect(
      describeEvent({ type: "signin_failed", details: { reason: "wrong_code", action: "signin" } }),
    ).toBe("wrong code");
    expect(describeEvent({ type: "lockout", details: { action: "signin", scope: "second_factor" } })).toBe(
      "too many wrong codes for this account",
    );
    expect(describeEvent({ type: "recovery_code_used", details: { recoveryCodesLeft: 9 } })).toBe(
      "9 codes left",
    );
    expect(describeEvent({ type: "second_factor_reset", details: { hadSecondFactor: false } })).toBe(
      "had none set up",
    );
    expect(
      describeEvent({ type: "second_factor_policy_changed", details: { from: "nobody", to: "admins" } }),
    ).toBe("required for: nobody → admins");
  });
});
