import { describe, expect, it } from "vitest";
import { reportApplies } from "./sms";
import { createTwilioProvider, deliveryErrorWords, statusFromTwilio, twilioSignature } from "./twilio";

// Twilio's own example (its security docs and helper libraries' tests): token 12345.
const URL = "https://mycompany.com/myapp.php?foo=1&bar=2";
const params = (caller: string) => ({
  CallSid: "CA1234567890ABCDE",
  Caller: caller,
  Digits: "1234",
  From: caller,
  To: "+18005551212",
});

describe("twilioSignature", () => {
  it("matches Twilio's published examples", () => {
    expect(twilioSignature("12345", URL, params("+14158675309"))).toBe("RSOYDt4T1cUTdK1PDd93/VVr8B8=");
    expect(twilioSignature("12345", URL, params("+14158675310"))).toBe("GvWf1cFY/Q7PnoempGyD5oXAezc=");
  });

  it("is checked in constant time by the provider, and refuses a missing or altered one", () => {
    const provider = createTwilioProvider(
      {
        kind: "twilio",
        accountSid: "AC1",
        authToken: "12345",
        from: "+15005550006",
        messagingServiceSid: null,
        apiUrl: "https://api.twilio.com",
      },
      { allowPrivate: false },
    );
    const good = { url: URL, params: params("+14158675309"), signature: "RSOYDt4T1cUTdK1PDd93/VVr8B8=" };
    expect(provider.verify(good)).toBe(true);
    expect(provider.verify({ ...good, signature: undefined })).toBe(false);
    expect(provider.verify({ ...good, signature: "RSOYDt4T1cUTdK1PDd93/VVr8B8" })).toBe(false);
    expect(provider.verify({ ...good, url: "https://mycompany.com/myapp.php?foo=1&bar=3" })).toBe(false);
    expect(provider.verify({ ...good, params: { ...good.params, Digits: "1235" } })).toBe(false);
  });
});

describe("statusFromTwilio and reportApplies", () => {
  it("reads Twilio's statuses as ours", () => {
    expect(["accepted", "queued", "scheduled", "sending", "sent"].map(statusFromTwilio)).toEqual(
      Array(5).fill("sent"),
    );
    expect(statusFromTwilio("delivered")).toBe("delivered");
    expect(statusFromTwilio("read")).toBe("delivered");
    expect(statusFromTwilio("undelivered")).toBe("undelivered");
    expect(statusFromTwilio("failed")).toBe("failed");
    expect(statusFromTwilio("receiving")).toBeNull();
  });

  it("never moves an SMS back from a verdict or a stored one forward", () => {
    expect(reportApplies("sent", "delivered")).toBe(true);
    expect(reportApplies("queued", "sent")).toBe(true);
    expect(reportApplies("delivered", "sent")).toBe(false);
    expect(reportApplies("failed", "delivered")).toBe(false);
    expect(reportApplies("sent", "sent")).toBe(false);
    expect(reportApplies("stored", "delivered")).toBe(false);
    expect(reportApplies("received", "delivered")).toBe(false);
  });

  it("words delivery errors", () => {
    expect(deliveryErrorWords("30006")).toMatch(/landline.*\(error 30006\)/);
    expect(deliveryErrorWords("39999")).toBe("The carrier could not deliver the message (error 39999)");
    expect(deliveryErrorWords(null)).toBe("The carrier could not deliver the message");
  });
});
