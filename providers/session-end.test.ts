import { describe, expect, it } from "vitest";
import { MemoryStorage } from "../src/lib/memory-storage";
import {
  forgetLogoutNotice,
  LOGOUT_NOTICES,
  logoutReasonOf,
  readLogoutNotice,
  refreshFailureReason,
  rememberLogoutReason,
  SESSION_END_KEY,
} from "./session-end";

describe("why the session ended", () => {
  it("reads a 406's reason from the server's words; other 401/406 answers have none", () => {
    expect(logoutReasonOf(406, "This account is disabled")).toBe("disabled");
    expect(logoutReasonOf(406, "You were signed out on this device")).toBe("device-signed-out");
    expect(logoutReasonOf(401, "This account is disabled")).toBe("unauthorized");
    expect(logoutReasonOf(401, "Session revoked")).toBe("unauthorized");
    expect(logoutReasonOf(406, undefined)).toBe("unauthorized");
  });

  it("a refused refresh is 'Unable to refresh token' unless the server said why", () => {
    expect(refreshFailureReason(401, "Invalid refresh token")).toBe("refresh-failed");
    expect(refreshFailureReason(undefined, undefined)).toBe("refresh-failed");
    expect(refreshFailureReason(406, "This account is disabled")).toBe("disabled");
    expect(refreshFailureReason(406, "You were signed out on this device")).toBe("device-signed-out");
  });

  it("uses the spec's words (§8) and the issue's", () => {
    expect(LOGOUT_NOTICES["refresh-failed"]?.message).toBe("Unable to refresh token");
    expect(LOGOUT_NOTICES.disabled?.message).toBe("This account is disabled");
    expect(LOGOUT_NOTICES["device-signed-out"]?.message).toBe("You were signed out on this device");
    expect(LOGOUT_NOTICES.unauthorized).toBeUndefined();
    expect(LOGOUT_NOTICES.deleted).toBeUndefined();
  });
});

describe("carrying the reason to the sign-in screen", () => {
  it("is kept until the sign-in screen forgets it", () => {
    const store = new MemoryStorage();
    rememberLogoutReason("disabled", store);
    expect(store.getItem(SESSION_END_KEY)).toBe("disabled");
    expect(readLogoutNotice(store)).toEqual(LOGOUT_NOTICES.disabled);
    expect(readLogoutNotice(store)).toEqual(LOGOUT_NOTICES.disabled);
    forgetLogoutNotice(store);
    expect(readLogoutNotice(store)).toBeNull();
  });

  it("keeps nothing for a reason without words, and ignores what it does not know", () => {
    const store = new MemoryStorage();
    rememberLogoutReason("unauthorized", store);
    expect(store.getItem(SESSION_END_KEY)).toBeNull();
    store.setItem(SESSION_END_KEY, "<img src=x>");
    expect(readLogoutNotice(store)).toBeNull();
  });

  it("never throws when storage is blocked", () => {
    const blocked = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
      removeItem: () => {
        throw new Error("SecurityError");
      },
    };
    expect(() => rememberLogoutReason("disabled", blocked)).not.toThrow();
    expect(readLogoutNotice(blocked)).toBeNull();
    expect(() => forgetLogoutNotice(blocked)).not.toThrow();
    expect(readLogoutNotice(undefined)).toBeNull();
  });
});
