import { describe, expect, it } from "vitest";
import { checkEmail, emailField, isEmptyHtml, placeErrors } from "./email-form";

describe("placeErrors", () => {
  it("puts each server error under its field, the first one of each, and keeps the rest apart", () => {
    expect(
      placeErrors([
        { field: "cc.2", message: "Cc must be an email address" },
        { field: "cc.3", message: "second" },
        { field: "assetIds.0", message: "This file is no longer in the asset manager" },
        { field: "templateId", message: "This is an SMS template" },
        { field: "clientId", message: "Client must be a UUID" },
      ]),
    ).toEqual({
      fields: {
        cc: "Cc must be an email address",
        attachments: "This file is no longer in the asset manager",
        template: "This is an SMS template",
      },
      other: "Client must be a UUID",
    });
    expect(emailField("(body)")).toBeNull();
  });
});

describe("checkEmail", () => {
  const draft = { subject: "Hi", body: "<p>x</p>", cc: [], bcc: [], attachmentsTooBig: false };

  it("passes a whole email", () => {
    expect(checkEmail(draft)).toEqual({});
    expect(checkEmail({ ...draft, body: '<p><img src="a.png"></p>' })).toEqual({});
  });

  it("asks for a subject and words, good addresses, files that fit", () => {
    expect(
      checkEmail({
        subject: " ",
        body: "<p></p>",
        cc: ["a@b.co", "nope"],
        bcc: ["x@"],
        attachmentsTooBig: true,
      }),
    ).toEqual({
      subject: "Write a subject",
      body: "Write a message",
      cc: "nope is not an email address",
      bcc: "x@ is not an email address",
      attachments: "The attachments are too big together",
    });
    expect(isEmptyHtml(undefined)).toBe(true);
  });
});
