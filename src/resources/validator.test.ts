/**
 * The form and the API give the same verdict in the same words: for every resource, the
 * same body validated by the rjsf validator (client) and by the server's route body
 * compiler gives the same field errors.
 */
import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../resources/index";
import type { EntitySchema, FieldSchema } from "../../schemas/contract";
import { fieldErrors } from "../../server/http/errors";
import { compileBody } from "../../server/http/validation";
import { bodySchemaOf } from "../../server/resources/records";
import { formSchemaOf } from "./form-schema";
import { formValidator } from "./validator";

type Body = Record<string, unknown>;

/** A value of the wrong shape for a field, to provoke its most likely error. */
function wrongValue(field: FieldSchema): unknown {
  if (field.enum) return "not-a-choice";
  if (field.format === "uuid") return "not-a-uuid";
  switch (field.type) {
    case "integer":
      return 1.5;
    case "number":
      return "twelve";
    case "boolean":
      return "yes";
    case "array":
      return ["not a url", "not a url"];
    default:
      return field.maxLength ? "x".repeat(field.maxLength + 1) : "";
  }
}

/** Bodies that break each rule of a schema in turn, plus the empty body. */
function badBodies(schema: EntitySchema): Body[] {
  const writable = Object.entries(schema.properties).filter(([, f]) => !f.readOnly);
  const allWrong = Object.fromEntries(writable.map(([name, f]) => [name, wrongValue(f)]));
  const empties = Object.fromEntries(
    writable.filter(([, f]) => f.type === "string" && !f.enum && !f.format).map(([name]) => [name, ""]),
  );
  return [{}, allWrong, empties, { ...allWrong, unknown_field: 1 }];
}

const lines = (errors: { field: string; message: string }[]) =>
  errors.map((e) => `${e.field}: ${e.message}`).sort();

function serverVerdict(schema: EntitySchema, body: Body): string[] {
  const validate = compileBody(bodySchemaOf(schema, "create"));
  validate(structuredClone(body));
  return lines(fieldErrors(validate.errors ?? []));
}

function clientVerdict(schema: EntitySchema, body: Body): string[] {
  const { errors } = formValidator.validateFormData(structuredClone(body), formSchemaOf(schema));
  return lines(
    errors.map((e) => {
      const path = String(e.property).replace(/^\./, "");
      // rjsf keeps an unknown property's error on the object; the server names the property.
      const unknown = e.name === "additionalProperties" ? String(e.params.additionalProperty) : "";
      return { field: [path, unknown].filter(Boolean).join(".") || "(body)", message: String(e.message) };
    }),
  );
}

describe("form validation matches the server's", () => {
  for (const def of RESOURCES) {
    it.each(badBodies(def.schema))(`${def.name}, bad body %#`, (body) => {
      const server = serverVerdict(def.schema, body);
      expect(server.length).toBeGreaterThan(0);
      expect(clientVerdict(def.schema, body)).toEqual(server);
    });
  }

  it("says it in the server's words", () => {
    const messages = clientVerdict(RESOURCES.find((r) => r.name === "products")!.schema, {
      sku_code: "",
      currency: "XXX",
    });
    expect(messages).toEqual(
      expect.arrayContaining([
        "category_id: is required",
        "name: is required",
        "price: is required",
        "sku_code: must not be empty",
        expect.stringMatching(/^currency: must be one of INR, USD, .*JPY$/),
      ]),
    );
  });
});
