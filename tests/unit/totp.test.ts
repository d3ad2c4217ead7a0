/** TOTP (server/auth/totp.ts) against RFC 6238's test vectors, its window and base32. */
import { describe, expect, it } from "vitest";
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  newTotpSecret,
  otpauthUri,
  stepAt,
  totpAt,
} from "../../server/auth/totp";

// RFC 6238 Appendix B: the seeds are ASCII digits repeated to each hash's key length.
const SEEDS = {
  sha1: Buffer.from("12345678901234567890"),
  sha256: Buffer.from("12345678901234567890123456789012"),
  sha512: Buffer.from("1234567890123456789012345678901234567890123456789012345678901234"),
};
const VECTORS: Array<[number, string, string, string]> = [
  [59, "94287082", "46119246", "90693936"],
  [1111111109, "07081804", "68084774", "25091201"],
  [1111111111, "14050471", "67062674", "99943326"],
  [1234567890, "89005924", "91819424", "93441116"],
  [2000000000, "69279037", "90698825", "38618901"],
  [20000000000, "65353130", "77737706", "47863826"],
];

describe("RFC 6238 test vectors", () => {
  it.each(VECTORS)("at %i s", (seconds, sha1, sha256, sha512) => {
    const step = stepAt(seconds * 1000);
    expect(hotp(SEEDS.sha1, step, 8, "sha1")).toBe(sha1);
    expect(hotp(SEEDS.sha256, step, 8, "sha256")).toBe(sha256);
    expect(hotp(SEEDS.sha512, step, 8, "sha512")).toBe(sha512);
  });

  it("gives the six-digit code an app shows (the vector's last six digits)", () => {
    const secret = base32Encode(SEEDS.sha1);
    for (const [seconds, sha1] of VECTORS) expect(totpAt(secret, seconds * 1000)).toBe(sha1.slice(2));
  });
});

describe("matchTotp", () => {
  const secret = base32Encode(SEEDS.sha1);
  const at = 1111111109 * 1000;

  it("accepts the current step and one either side, and names the step", () => {
    const now = stepAt(at);
    expect(matchTotp(secret, totpAt(secret, at), at)).toBe(now);
    expect(matchTotp(secret, totpAt(secret, at - 30_000), at)).toBe(now - 1);
    expect(matchTotp(secret, totpAt(secret, at + 30_000), at)).toBe(now + 1);
  });

  it("refuses a code two steps away, a wrong code and what is not six digits", () => {
    expect(matchTotp(secret, totpAt(secret, at - 60_000), at)).toBeNull();
    expect(matchTotp(secret, totpAt(secret, at + 60_000), at)).toBeNull();
    const right = totpAt(secret, at);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
    expect(matchTotp(secret, wrong, at)).toBeNull();
    for (const bad of ["", "12345", "1234567", "12 456", "abcdef"])
      expect(matchTotp(secret, bad, at)).toBeNull();
  });
});

describe("secrets and URIs", () => {
  it("encodes and decodes base32 both ways (RFC 4648 vectors)", () => {
    expect(base32Encode(Buffer.from("foobar"))).toBe("MZXW6YTBOI");
    expect(base32Encode(Buffer.from("f"))).toBe("MY");
    expect(base32Decode("mzxw 6ytb oi======").toString()).toBe("foobar");
    expect(() => base32Decode("MZXW1")).toThrow();
  });

  it("makes a 160-bit secret, a new one each time", () => {
    const a = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(a)).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(a);
  });

  it("builds the otpauth URI with the issuer as label prefix and parameter", () => {
    const uri = otpauthUri("ada+1@example.com", "JBSWY3DPEHPK3PXP");
    expect(uri).toBe(
      "otpauth://totp/Atelier:ada%2B1%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Atelier&algorithm=SHA1&digits=6&period=30",
    );
  });
});
