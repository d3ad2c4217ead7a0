import { describe, expect, it } from "vitest";
import { smsKeyword } from "./sms";

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
