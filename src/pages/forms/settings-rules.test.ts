import { describe, expect, it } from "vitest";
import { defaultSettings, type FormSettings } from "../../../schemas/form-definition";
import { newField } from "./builder-state";
import {
  insertToken,
  nextParameterId,
  problemsAt,
  renameInSettings,
  routeErrors,
  settingsProblems,
  templatePlaceholders,
} from "./settings-rules";

const fields = [
  newField("email", "email", "Email"),
  newField("heading", "intro", "About you"),
  newField("text", "name", "Name"),
];
const withMail = (mail: Partial<FormSettings["mail"]>): FormSettings => {
  const settings = defaultSettings();
  return { ...settings, mail: { ...settings.mail, ...mail } };
};

describe("the problems of a form's settings", () => {
  it("has none for the defaults", () => {
    expect(settingsProblems(defaultSettings(), fields)).toEqual({});
  });

  it("names every address that is none, and wants a Destination when mail is on", () => {
    expect(
      settingsProblems(
        withMail({ isEmail: true, sendCc: ["ann@example.com", "bob"], sendBcc: ["x@y"] }),
        fields,
      ),
    ).toEqual({
      "mail.Destination": "Add the address the answers are sent to",
      "mail.sendCc.1": "bob is not an email address",
      "mail.sendBcc.0": "x@y is not an email address",
    });
  });

  it("sends a confirmation only to an email field of the form", () => {
    const confirmation = { enabled: true, subject: "Thanks", body: "" };
    expect(settingsProblems(withMail({ confirmation }), fields)["mail.confirmation.enabled"]).toMatch(
      /Choose the Reply-To/,
    );
    expect(
      settingsProblems(withMail({ confirmation, replyToField: "name" }), fields)["mail.replyToField"],
    ).toMatch(/no longer an email field/);
    expect(settingsProblems(withMail({ confirmation, replyToField: "email" }), fields)).toEqual({});
  });

  it("wants a whole Step of 1 or more and unique custom parameters that are no utm_ default", () => {
    const settings = defaultSettings();
    settings.utm = {
      ...settings.utm,
      Step: 0,
      customParameters: [
        { id: 6, name: "gclid", type: 1 },
        { id: 7, name: "gclid", type: 1 },
        { id: 8, name: "utm_source", type: 1 },
        { id: 9, name: "9lives", type: 1 },
        { id: 10, name: " ", type: 1 },
      ],
    };
    expect(settingsProblems(settings, fields)).toEqual({
      "utm.Step": "A whole number, 1 or more",
      "utm.customParameters.1.name": "gclid is listed twice",
      "utm.customParameters.2.name": "utm_source is already recorded as a default parameter",
      "utm.customParameters.3.name":
        "Letters, digits, _ and -, starting with a letter (at most 63 characters)",
      "utm.customParameters.4.name": "Give the parameter a name",
    });
  });

  it("gathers the messages under a path", () => {
    expect(
      problemsAt({ "mail.sendCc.0": "a", "mail.sendCc.2": "b", "mail.sendBcc.0": "c" }, "mail.sendCc"),
    ).toEqual(["a", "b"]);
  });
});

describe("UTM parameters and mail templates", () => {
  it("numbers custom parameters on from 6", () => {
    const { utm } = defaultSettings();
    expect(nextParameterId(utm)).toBe(6);
    expect(nextParameterId({ ...utm, customParameters: [{ id: 9, name: "a", type: 1 }] })).toBe(10);
  });

  it("offers the form, all answers and each answerable field's id", () => {
    expect(templatePlaceholders(fields)).toEqual(["{{form}}", "{{answers}}", "{{email}}", "{{name}}"]);
  });

  it("puts a placeholder in place of the selection", () => {
    expect(insertToken("Hi !", 3, 3, "{{name}}")).toEqual({ text: "Hi {{name}}!", caret: 11 });
    expect(insertToken("Hi you", 3, 6, "{{name}}")).toEqual({ text: "Hi {{name}}", caret: 11 });
  });
});

describe("a field renamed", () => {
  it("takes its Reply-To role and its placeholders along", () => {
    const settings = withMail({
      replyToField: "email",
      subject: "From {{email}}",
      body: "{{answers}}\n{{email}}",
    });
    const renamed = renameInSettings(settings, "email", "work_email");
    expect(renamed.mail).toMatchObject({
      replyToField: "work_email",
      subject: "From {{work_email}}",
      body: "{{answers}}\n{{work_email}}",
    });
    expect(renameInSettings(settings, "name", "full_name")).toBe(settings);
  });
});

describe("a refused save's messages", () => {
  it("go to the field, the setting or above the builder", () => {
    expect(
      routeErrors([
        { field: "fields.2.label", message: "Label is required" },
        { field: "fields.2.options.1", message: "Option 2 is empty" },
        { field: "settings.mail.sendCc.0", message: "bob is not an email address" },
        { field: "fields", message: "A form takes at most 100 fields" },
      ]),
    ).toEqual({
      fields: { 2: { label: "Label is required", "options.1": "Option 2 is empty" } },
      settings: { "mail.sendCc.0": "bob is not an email address" },
      other: ["A form takes at most 100 fields"],
    });
  });
});
