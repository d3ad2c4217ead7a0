import { AxiosError, AxiosHeaders, type AxiosResponse } from "axios";
import { describe, expect, it } from "vitest";
import { getErrorMessage, getFieldErrors, SOMETHING_WENT_WRONG } from "./errors";

/** A real AxiosError as axios builds it for an answered request. */
function answered(status: number, data: unknown): AxiosError {
  const config = { headers: new AxiosHeaders() };
  const response: AxiosResponse = { status, statusText: "", data, headers: {}, config };
  return new AxiosError(
    `Request failed with status code ${status}`,
    "ERR_BAD_RESPONSE",
    config,
    {},
    response,
  );
}

describe("getErrorMessage", () => {
  it("gives the API's message when present", () => {
    const error = answered(409, { statusCode: 409, error: "Conflict", message: "Email already taken" });
    expect(getErrorMessage(error)).toBe("Email already taken");
  });

  it("gives 'Something Went Wrong' for an answer without a message", () => {
    expect(getErrorMessage(answered(500, "<html>oops</html>"))).toBe(SOMETHING_WENT_WRONG);
    expect(getErrorMessage(answered(500, { message: "" }))).toBe(SOMETHING_WENT_WRONG);
    expect(getErrorMessage(answered(500, null))).toBe(SOMETHING_WENT_WRONG);
  });

  it("does not show axios's transport wording", () => {
    expect(getErrorMessage(new AxiosError("Network Error", "ERR_NETWORK"))).toBe(SOMETHING_WENT_WRONG);
  });

  it("gives the message of a plain error", () => {
    expect(getErrorMessage(new Error("Unable to refresh token"))).toBe("Unable to refresh token");
    expect(getErrorMessage({ message: "Could not delete PDF", statusCode: 500 })).toBe(
      "Could not delete PDF",
    );
  });

  it.each([undefined, null, "text", 42, {}, new Error("")])("falls back for %j", (value) => {
    expect(getErrorMessage(value)).toBe(SOMETHING_WENT_WRONG);
  });

  it("spells the fallback as the spec does", () => {
    expect(SOMETHING_WENT_WRONG).toBe("Something Went Wrong");
  });
});

describe("getFieldErrors", () => {
  it("reads response.data.details", () => {
    const error = answered(400, {
      statusCode: 400,
      error: "Bad Request",
      message: "Invalid input",
      details: [
        { field: "email", message: "must be an email" },
        { field: "password", message: "is too short" },
      ],
    });
    expect(getFieldErrors(error)).toEqual([
      { field: "email", message: "must be an email" },
      { field: "password", message: "is too short" },
    ]);
  });

  it("skips malformed entries and extra keys", () => {
    const error = answered(400, {
      details: [{ field: "email", message: "bad", extra: 1 }, { field: 3, message: "x" }, null, "x"],
    });
    expect(getFieldErrors(error)).toEqual([{ field: "email", message: "bad" }]);
  });

  it("gives an empty list without details", () => {
    expect(getFieldErrors(answered(400, { message: "x" }))).toEqual([]);
    expect(getFieldErrors(new Error("x"))).toEqual([]);
    expect(getFieldErrors(undefined)).toEqual([]);
  });
});
