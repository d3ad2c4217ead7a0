/**
 * The form and the API give the same verdict in the same words: for every resource, the
 * same body validated by the rjsf validator (client) and by the server's route body
 * compiler gives the same field errors.
 */
import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../resources/index";
import { baseType, type EntitySchema, type FieldSchema } from "../../schemas/contract";
import { fieldErrors } from "../../server/http/errors";
import { compileBody } from "../../server/http/validation";
import { bodySchemaOf } from "../../server/resources/records";
import { specimens } from "../../tests/fixtures/every-field-type";
import { formSchemaOf, nullWhenBlank } from "./form-schema";
import { formValidator } from "./validator";

type Body = Record<string, unknown>;

/** A value each string format refuses. */
const WRONG_FORMATS: Record<NonNullable<FieldSchema["format"]>, string> = {
  uuid: "not-a-uuid",
  email: "ada@",
  uri: "example.com",
  date: "05-03-2024",
  "date-time": "2024-03-05T14:30:00",
  time: "9:30",
};

/** A value of the wrong shape for a field, to provoke its most likely error. */
function wrongValue(field: FieldSchema): unknown {
  if (field.enum) return "not-a-choice";
  if (field.format) return WRONG_FORMATS[field.format];
  switch (baseType(field)) {
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
    writable.filter(([, f]) => baseType(f) === "string" && !f.enum && !f.format).map(([name]) => [name, ""]),
  );
  return [{}, allWrong, empties, { ...allWrong, unknown_field: 1 }];
}

const lines = (errors: { field: string; message: string }[]) =>
  errors.map((e) => `${e.field}: ${e.message}`).sort();

/**
 * What the server is sent for a form's data: a blank nullable field that must be sent (or would
 * take its default) goes as null (form-schema.ts toCreateBody), and null is fine by it.
 */
function serverVerdict(schema: EntitySchema, body: Body): string[] {
  const validate = compileBody(bodySchemaOf(schema, "create"));
  const blanks = Object.fromEntries(nullWhenBlank(schema).map((name) => [name, null]));
  validate(structuredClone({ ...blanks, ...body }));
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
  for (const def of [...RESOURCES, specimens]) {
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
        "category_id: Category is required",
        "name: Name is required",
        "price: Price is required",
        "sku_code: SKU code must not be empty",
        "sku_code: SKU code may only contain letters, digits, dots, dashes and underscores",
        expect.stringMatching(/^currency: Currency must be one of INR, USD, .*JPY$/),
      ]),
    );
  });
});
