import { describe, expect, it } from "vitest";
import { defaultSettings, type FormDefinition } from "../../schemas/form-definition";
import { toPublicForm } from "./public-form";

function definition(): FormDefinition {
  const settings = defaultSettings();
  settings.mail = {
    isEmail: true,
    Destination: ["sales@secret.example"],
    sendCc: ["cc@secret.example"],
    sendBcc: ["bcc@secret.example"],
    subject: "Lead {{name}} SECRET-SUBJECT",
    body: "SECRET-BODY {{answers}}",
    replyToField: "email",
    confirmation: { enabled: true, subject: "SECRET-CONFIRM", body: "SECRET-CONFIRM-BODY" },
  };
  settings.utm.trackingId = "SECRET-TRACKING-ID";
  settings.utm.customParameters = [{ id: 6, name: "gclid", type: 1, defaultValue: "none" }];
  settings.submit = { buttonLabel: "Send", successMessage: "Thanks" };
  settings.firstTouch = "consent";
  return {
    fields: [
      { id: "email", kind: "email", label: "Email", required: true, validation: { maxLength: 320 } },
      { id: "plan", kind: "dropdown", label: "Plan", options: ["Free", "Pro"], validation: {} },
    ],
    settings,
  };
}

describe("toPublicForm", () => {
  it("never carries the mail settings, nor the tracking id", () => {
    const form = toPublicForm({ slug: "contact", name: "Contact" }, 4, definition());
    const text = JSON.stringify(form);
    expect(text).not.toMatch(/secret/i);
    expect(form.settings).not.toHaveProperty("mail");
    expect(Object.keys(form.settings).sort()).toEqual(["firstTouch", "submit", "utm"]);
  });

  it("keeps the slug, name, version, fields, submit and first-touch settings", () => {
    const form = toPublicForm({ slug: "contact", name: "Contact" }, 4, definition());
    expect(form).toMatchObject({ slug: "contact", name: "Contact", version: 4 });
    expect(form.fields.map((f) => f.id)).toEqual(["email", "plan"]);
    expect(form.fields[1].options).toEqual(["Free", "Pro"]);
    expect(form.settings.submit).toEqual({ buttonLabel: "Send", successMessage: "Thanks" });
    expect(form.settings.firstTouch).toBe("consent");
  });

  it("names the tracked parameters, the defaults first, then the custom ones", () => {
    const form = toPublicForm({ slug: "contact", name: "Contact" }, 1, definition());
    expect(form.settings.utm.parameters).toEqual([
      "utm_source",
      "utm_medium",
      "utm_campaign",
      "utm_term",
      "utm_content",
      "gclid",
    ]);
  });

  it("copies only the keys of a field the renderer reads", () => {
    const def = definition();
    Object.assign(def.fields[0], { internalNote: "SECRET-NOTE" });
    const form = toPublicForm({ slug: "c", name: "C" }, 1, def);
    expect(form.fields[0]).not.toHaveProperty("internalNote");
    expect(Object.keys(form.fields[0]).sort()).toEqual(["id", "kind", "label", "required", "validation"]);
  });

  it("takes only slug and name of the record", () => {
    const record = { slug: "c", name: "C", accepting: true, id: "5f0c…" };
    expect(Object.keys(toPublicForm(record, 1, definition()))).toEqual([
      "slug",
      "name",
      "version",
      "fields",
      "settings",
    ]);
  });
});
