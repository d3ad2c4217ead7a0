/**
 * One sentence for one mistake, wherever it is made (issue 13): a bad SKU code typed in the
 * product form (the SPA's validator), sent to the API, and imported from a CSV file reads the
 * same words, from the schema's title and pattern hint, never the expression or the key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { products } from "../../resources/products";
import { formSchemaOf } from "../../src/resources/form-schema";
import { formValidator } from "../../src/resources/validator";
import { importFile } from "./csv-fixtures";
import { DRIVERS, startServer, type TestServer } from "./harness";

const SKU_WORDS = "SKU code may only contain letters, digits, dots, dashes and underscores";
type Details = { message: string; details?: { field: string; message: string }[] };

describe.each(DRIVERS)("a bad SKU code on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let category: { id: string; name: string };

  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
    const made = await s.api<{ id: string; name: string }>("POST", "/api/categories", {
      token: admin,
      body: { name: "Lamps" },
    });
    category = made.body;
  });
  afterAll(() => s?.close());

  it("says the same words in the form, the API and a CSV import", async () => {
    const form = formValidator.validateFormData(
      { sku_code: "bad sku!", name: "Lamp", price: 10, category_id: category.id },
      formSchemaOf(products.schema),
    );
    expect(form.errors.map((e) => [e.property, e.message])).toEqual([[".sku_code", SKU_WORDS]]);

    const api = await s.api<Details>("POST", "/api/products", {
      token: admin,
      body: { sku_code: "bad sku!", name: "Lamp", price: 10, category_id: category.id },
    });
    expect(api.status).toBe(400);
    // One mistake: the headline a toast shows is the sentence itself.
    expect(api.body).toMatchObject({
      message: SKU_WORDS,
      details: [{ field: "sku_code", message: SKU_WORDS }],
    });

    const csv = await importFile(s, admin, "/api/products", [
      "SKU code,Name,Price,Category",
      `bad sku!,Lamp,10,${category.name}`,
    ]);
    expect(csv.status).toBe(400);
    expect(csv.body.errors).toEqual([{ row: 2, field: "SKU code", message: SKU_WORDS }]);
  });

  it("heads an answer with several mistakes by how many fields need correcting", async () => {
    const api = await s.api<Details>("POST", "/api/products", {
      token: admin,
      body: { sku_code: "-x", price: -1, extra_field: 1 },
    });
    expect(api.status).toBe(400);
    expect(api.body.message).toBe("5 fields need correcting");
    for (const d of api.body.details ?? []) {
      expect(d.message).toMatch(/^[A-Z]/);
      expect(d.message).not.toMatch(/[_^$\\[\]]|must match|pattern/);
    }
  });
});
