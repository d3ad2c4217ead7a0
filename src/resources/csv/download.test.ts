import { describe, expect, it } from "vitest";
import { attachmentName } from "./download";

describe("attachmentName", () => {
  it("takes the server's file name", () => {
    expect(attachmentName('attachment; filename="contact-submissions.csv"', "x.csv")).toBe(
      "contact-submissions.csv",
    );
    expect(attachmentName("attachment; filename=products.csv", "x.csv")).toBe("products.csv");
  });

  it("falls back without a name, and never keeps a path", () => {
    expect(attachmentName(undefined, "products.csv")).toBe("products.csv");
    expect(attachmentName("attachment", "products.csv")).toBe("products.csv");
    expect(attachmentName('attachment; filename="../a/b.csv"', "x.csv")).toBe("..-a-b.csv");
  });
});
