import { describe, expect, it } from "vitest";
import { anyPlaceholder, choosePlaceholder } from "./fields";

describe("placeholders of selects and filters (issue 27)", () => {
  it("asks for one value with the right article, acronyms kept", () => {
    expect(choosePlaceholder("Industry")).toBe("Choose an industry");
    expect(choosePlaceholder("Opportunity")).toBe("Choose an opportunity");
    expect(choosePlaceholder("Client")).toBe("Choose a client");
    expect(choosePlaceholder("SMS template")).toBe("Choose an SMS template");
    expect(choosePlaceholder("User")).toBe("Choose a user");
    expect(choosePlaceholder("Tags", { many: true })).toBe("Choose tags");
    expect(choosePlaceholder("")).toBe("Choose a value");
  });

  it("writes a filter's placeholder as people would: a yes-or-no field by its own words", () => {
    expect(anyPlaceholder("Industry")).toBe("Any industry");
    expect(anyPlaceholder("UTM source")).toBe("Any UTM source");
    expect(anyPlaceholder("Agrees to SMS", true)).toBe("Agrees to SMS: any");
    expect(anyPlaceholder("I agree to be contacted", true)).toBe("I agree to be contacted: any");
  });
});
