import { describe, expect, it } from "vitest";
import {
  failureStatus,
  loadFailed,
  loadFailureKind,
  loadFailureReason,
  loadFailureTitle,
} from "./load-failure";

describe("loadFailureKind", () => {
  it("says offline whatever the request answered, when the browser is offline", () => {
    expect(loadFailureKind({ statusCode: 500 }, false)).toBe("offline");
    expect(loadFailureKind(null, false)).toBe("offline");
  });

  it("reads a Refine HttpError's statusCode", () => {
    expect(loadFailureKind({ statusCode: 500, message: "x" }, true)).toBe("server");
    expect(loadFailureKind({ statusCode: 503 }, true)).toBe("server");
    expect(loadFailureKind({ statusCode: 404 }, true)).toBe("not-found");
    expect(loadFailureKind({ statusCode: 403 }, true)).toBe("forbidden");
    expect(loadFailureKind({ statusCode: 400 }, true)).toBe("refused");
    expect(loadFailureKind({ statusCode: 408 }, true)).toBe("timeout");
    expect(loadFailureKind({ statusCode: 0 }, true)).toBe("no-answer");
  });

  it("reads an axios error's response status and timeout codes", () => {
    expect(loadFailureKind({ isAxiosError: true, response: { status: 502 } }, true)).toBe("server");
    expect(loadFailureKind({ isAxiosError: true, code: "ECONNABORTED" }, true)).toBe("timeout");
    expect(loadFailureKind({ isAxiosError: true, code: "ETIMEDOUT" }, true)).toBe("timeout");
    expect(loadFailureKind({ isAxiosError: true, code: "ERR_NETWORK" }, true)).toBe("no-answer");
  });

  it("takes anything else for no answer", () => {
    expect(loadFailureKind(new Error("boom"), true)).toBe("no-answer");
    expect(loadFailureKind(undefined, true)).toBe("no-answer");
  });
});

describe("failureStatus", () => {
  it("prefers the response status over statusCode", () => {
    expect(failureStatus({ response: { status: 500 }, statusCode: 0 })).toBe(500);
    expect(failureStatus({ statusCode: 404 })).toBe(404);
    expect(failureStatus("nope")).toBeUndefined();
  });
});

describe("loadFailureReason", () => {
  it("gives plain words for each kind, with the status of a server error", () => {
    expect(loadFailureReason("server", 502)).toBe(
      "The server ran into a problem (error 502). Try again in a moment.",
    );
    expect(loadFailureReason("offline")).toMatch(/^You are offline\./);
    expect(loadFailureReason("timeout")).toMatch(/took too long/);
    expect(loadFailureReason("no-answer")).toMatch(/did not answer/);
  });

  it("shows a refusal's own message, ending in a full stop", () => {
    expect(loadFailureReason("refused", 400, "Invalid params")).toBe("Invalid params.");
    expect(loadFailureReason("refused", 400, "Bad date!")).toBe("Bad date!");
    expect(loadFailureReason("refused", 400)).toBe("The server refused the request.");
  });
});

describe("loadFailureTitle", () => {
  it("puts 'The' before what failed, unless it has its own determiner", () => {
    expect(loadFailureTitle("products")).toBe("The products could not be loaded");
    expect(loadFailureTitle("security log")).toBe("The security log could not be loaded");
    expect(loadFailureTitle("your devices")).toBe("Your devices could not be loaded");
    expect(loadFailureTitle("This product")).toBe("This product could not be loaded");
  });
});

describe("loadFailed", () => {
  it("is a failed load, or one waiting offline with nothing to show", () => {
    expect(loadFailed({ isError: true, isPaused: false })).toBe(true);
    expect(loadFailed({ isError: true, isPaused: false, data: { data: [] } })).toBe(true);
    expect(loadFailed({ isError: false, isPaused: true })).toBe(true);
    expect(loadFailed({ isError: false, isPaused: true, data: { data: [] } })).toBe(false);
    expect(loadFailed({ isError: false, isPaused: false })).toBe(false);
  });
});
