import { describe, expect, it } from "vitest";
import { countSms, isGsm7, smsCountLabel } from "./sms-segments";

describe("countSms: GSM-7", () => {
  it("counts nothing for an empty text", () => {
    expect(countSms("")).toMatchObject({ encoding: "GSM-7", characters: 0, units: 0, segments: 0 });
  });

  it("fits 160 characters in one SMS and splits the 161st into parts of 153", () => {
    expect(countSms("a".repeat(160))).toMatchObject({
      segments: 1,
      units: 160,
      remaining: 0,
      perSegment: 160,
    });
    expect(countSms("a".repeat(161))).toMatchObject({ segments: 2, perSegment: 153, remaining: 153 - 8 });
    expect(countSms("a".repeat(306)).segments).toBe(2);
    expect(countSms("a".repeat(307)).segments).toBe(3);
  });

  it("counts the extension table's characters as two septets", () => {
    expect(countSms("{}")).toMatchObject({ encoding: "GSM-7", characters: 2, units: 4 });
    for (const ch of ["^", "{", "}", "\\", "[", "~", "]", "|", "€", "\f"]) {
      expect(countSms(ch).units, JSON.stringify(ch)).toBe(2);
    }
    expect(countSms("€".repeat(80))).toMatchObject({ units: 160, segments: 1 });
    expect(countSms("€".repeat(81))).toMatchObject({ units: 162, segments: 2 });
  });

  it("never cuts an escape pair between two parts", () => {
    // 306 septets would be two full parts, but the euro sign cannot start at septet 153.
    const text = `${"a".repeat(152)}€${"a".repeat(152)}`;
    expect(countSms(text)).toMatchObject({ units: 306, segments: 3 });
  });

  it("keeps the alphabet's accented letters, Greek capitals and line breaks in GSM-7", () => {
    expect(isGsm7("Ça coûte? Öl, ñandú, Δ Ω — no")).toBe(false); // û and the dash are not GSM
    expect(isGsm7("Ça va? Öl, ñ, Δ Ω, é è ù ì ò, ¿¡ £$¥ §\r\n@_")).toBe(true);
  });
});

describe("countSms: UCS-2", () => {
  it("switches the whole text to UCS-2 for one character outside the alphabet", () => {
    expect(countSms("Price ₹500")).toMatchObject({
      encoding: "UCS-2",
      characters: 10,
      units: 10,
      segments: 1,
    });
    expect(countSms("It’s here").encoding).toBe("UCS-2");
  });

  it("fits 70 units in one SMS and splits into parts of 67", () => {
    expect(countSms("ж".repeat(70))).toMatchObject({ segments: 1, perSegment: 70, remaining: 0 });
    expect(countSms("ж".repeat(71))).toMatchObject({ segments: 2, perSegment: 67, remaining: 67 - 4 });
    expect(countSms("ж".repeat(134)).segments).toBe(2);
    expect(countSms("ж".repeat(135)).segments).toBe(3);
  });

  it("counts a character beyond the BMP (an emoji) as two units and one character", () => {
    expect(countSms("😀")).toMatchObject({ encoding: "UCS-2", characters: 1, units: 2, segments: 1 });
    expect(countSms("😀".repeat(35))).toMatchObject({ units: 70, segments: 1 });
    expect(countSms("😀".repeat(36))).toMatchObject({ units: 72, segments: 2 });
  });

  it("never cuts a surrogate pair between two parts", () => {
    const text = `${"ж".repeat(66)}😀${"ж".repeat(66)}`;
    expect(countSms(text)).toMatchObject({ units: 134, segments: 3 });
  });
});

describe("smsCountLabel", () => {
  it("reads as the modal shows it", () => {
    expect(smsCountLabel(countSms("Hi"))).toBe("2 characters · 1 segment · GSM-7");
    expect(smsCountLabel(countSms("x"))).toBe("1 character · 1 segment · GSM-7");
    expect(smsCountLabel(countSms("😀".repeat(36)))).toBe("36 characters · 2 segments · Unicode");
    expect(smsCountLabel(countSms(""))).toBe("0 characters · 0 segments · GSM-7");
  });
});
