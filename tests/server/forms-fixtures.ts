/** A contact form's definition, shared by the forms tests and the submissions bench. */
import { defaultSettings, type FormDefinition } from "../../schemas/form-definition";

export function contactForm(): FormDefinition {
  const settings = defaultSettings();
  settings.mail = {
    ...settings.mail,
    isEmail: true,
    Destination: ["sales@example.com"],
    sendCc: ["boss@example.com"],
    sendBcc: ["archive@example.com"],
    subject: "New lead from {{name}}",
    body: "{{answers}}",
    replyToField: "email",
  };
  settings.utm.customParameters = [{ id: 6, name: "gclid", type: 1, defaultValue: "none" }];
  settings.firstTouch = "on";
  return {
    fields: [
      { id: "name", kind: "text", label: "Name", required: true, validation: { maxLength: 80 } },
      { id: "email", kind: "email", label: "Email", required: true, validation: { maxLength: 320 } },
      { id: "plan", kind: "radio", label: "Plan", options: ["Free", "Pro"], validation: {} },
      {
        id: "company",
        kind: "text",
        label: "Company",
        validation: { maxLength: 100 },
        logic: [
          { action: "show", match: "all", conditions: [{ field: "plan", operator: "eq", value: "Pro" }] },
        ],
        required: true,
      },
      { id: "start", kind: "date", label: "Start date", validation: {} },
      { id: "seats", kind: "number", label: "Seats", validation: { min: 1, max: 500 } },
    ],
    settings,
  };
}
