import { describe, expect, it } from "vitest";
import { smsKeyword, smsRefusal } from "./sms";

describe("smsKeyword", () => {
  it("reads the opt-out words, alone and in any case", () => {
    for (const text of ["STOP", "stop", " Stop. ", "STOPALL", "unsubscribe", "Cancel", "END", "quit!"]) {
      expect(smsKeyword(text), text).toBe("opt_out");
    }
  });

  it("reads the opt-in words", () => {
    for (const text of ["START", "yes", "Unstop"]) expect(smsKeyword(text), text).toBe("opt_in");
  });

  it("never reads a sentence that holds one", () => {
    for (const text of ["Please don't stop", "STOP sending me offers", "yes please", "", "HELP"]) {
      expect(smsKeyword(text), text).toBeNull();
    }
  });
});

describe("smsRefusal", () => {
  const client = { name: "Asha", phone: "+919876543210", consent_sms: true, sms_opted_out_at: null };
  it("lets a client with a phone and consent, not opted out, be texted", () => {
    expect(smsRefusal(client)).toBeNull();
  });
  it("says why not, the missing phone first", () => {
    expect(smsRefusal({ ...client, phone: null, consent_sms: false })).toMatch(/no phone number/);
    expect(smsRefusal({ ...client, sms_opted_out_at: "2025-01-01T00:00:00Z" })).toMatch(/opted out.*START/);
    expect(smsRefusal({ ...client, consent_sms: false })).toMatch(/has not agreed to receive SMS/);
  });
});
