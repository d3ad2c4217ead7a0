import { describe, expect, it } from "vitest";
import { keyOfLabel } from "./custom-fields-api";

describe("keyOfLabel", () => {
  it("makes a key the server accepts from a label", () => {
    expect(keyOfLabel("Industry size (staff)")).toBe("industry_size_staff");
    expect(keyOfLabel("  Société générale ")).toBe("societe_generale");
    expect(keyOfLabel("2nd contact")).toBe("nd_contact");
    expect(keyOfLabel("x".repeat(60))).toHaveLength(40);
    expect(keyOfLabel("!!!")).toBe("");
  });
});
