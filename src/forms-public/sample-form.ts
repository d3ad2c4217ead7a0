/**
 * A public form with one field of every kind and a little logic, for the tests beside this file
 * and for looking at the renderer's output (not imported by the bundles).
 */
import { defaultValidation } from "../../schemas/forms";
import type { PublicForm } from "./public-form";

export function sampleForm(): PublicForm {
  return {
    slug: "contact",
    name: "Contact us",
    version: 3,
    fields: [
      {
        id: "intro",
        kind: "heading",
        label: "About you",
        help: "We answer within two working days.",
        validation: {},
      },
      {
        id: "name",
        kind: "text",
        label: "Full name",
        required: true,
        placeholder: "Ada Lovelace",
        validation: defaultValidation("text"),
      },
      { id: "email", kind: "email", label: "Email", required: true, validation: defaultValidation("email") },
      {
        id: "phone",
        kind: "phone",
        label: "Phone",
        help: "With the country code.",
        validation: defaultValidation("phone"),
      },
      { id: "plan", kind: "dropdown", label: "Plan", options: ["Free", "Pro", "Enterprise"], validation: {} },
      {
        id: "seats",
        kind: "number",
        label: "Seats",
        validation: { min: 1, max: 500 },
        logic: [
          {
            action: "show",
            match: "all",
            conditions: [{ field: "plan", operator: "eq", value: "Enterprise" }],
          },
        ],
      },
      { id: "start", kind: "date", label: "Start date", validation: {} },
      {
        id: "contact_by",
        kind: "radio",
        label: "Contact me by",
        options: ["Email", "Phone"],
        validation: {},
      },
      {
        id: "call_time",
        kind: "text",
        label: "Best time to call",
        validation: defaultValidation("text"),
        logic: [
          {
            action: "show",
            match: "all",
            conditions: [{ field: "contact_by", operator: "eq", value: "Phone" }],
          },
          {
            action: "require",
            match: "all",
            conditions: [{ field: "contact_by", operator: "eq", value: "Phone" }],
          },
        ],
      },
      {
        id: "topics",
        kind: "checkboxes",
        label: "Topics",
        options: ["Billing", "Product", "Other"],
        validation: { minItems: 0 },
      },
      {
        id: "message",
        kind: "longtext",
        label: "Message",
        required: true,
        validation: defaultValidation("longtext"),
      },
      {
        id: "cv",
        kind: "file",
        label: "Attachment",
        validation: { accept: ["application/pdf", "image/*"], maxSizeMb: 10 },
      },
      { id: "rating", kind: "rating", label: "How did we do?", validation: defaultValidation("rating") },
      { id: "campaign", kind: "hidden", label: "Campaign", defaultValue: "spring", validation: {} },
      { id: "terms", kind: "consent", label: "I agree to the terms", required: true, validation: {} },
    ],
    settings: {
      submit: { buttonLabel: "Send", successMessage: "Thank you! We will be in touch." },
      utm: { parameters: ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "gclid"] },
      firstTouch: "consent",
    },
  };
}
