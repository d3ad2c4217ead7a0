import { describe, expect, it } from "vitest";
import {
  CLIENT_MERGE_FIELDS,
  mergeFieldsIn,
  mergeValuesOf,
  renderMergeFields,
  USER_MERGE_FIELDS,
  unknownMergeFields,
} from "./merge-fields";

const client = {
  name: "Asha  Rao Menon",
  email: "asha@example.com",
  phone: null,
  company: "Rao & Sons",
  job_title: null,
  custom: { plan: "gold", seats: 12, vip: true, regions: ["North", "West"], empty: "" },
};
const user = { first_name: "Dev", last_name: "Patel", email: "dev@example.com" };

describe("mergeFieldsIn", () => {
  it("finds each field once, in order, with or without spaces and fallbacks", () => {
    expect(mergeFieldsIn("{{ user.name }}: Hi {{client.first_name|there}}, {{user.name}} {{x}}")).toEqual([
      "user.name",
      "client.first_name",
      "x",
    ]);
  });

  it("ignores what is not a field", () => {
    expect(mergeFieldsIn("{client.name} {{ }} {{1abc}} {{a..b}} {{client.name")).toEqual([]);
  });
});

describe("mergeValuesOf", () => {
  const values = mergeValuesOf(client, user, ["plan", "renewal"]);

  it("fills the standard fields, first and last name from the name", () => {
    expect(values).toMatchObject({
      "client.name": "Asha  Rao Menon",
      "client.first_name": "Asha",
      "client.last_name": "Rao Menon",
      "client.company": "Rao & Sons",
      "client.email": "asha@example.com",
      "client.phone": null,
      "user.name": "Dev Patel",
      "user.first_name": "Dev",
      "user.email": "dev@example.com",
    });
  });

  it("knows every field the insert menus offer", () => {
    for (const f of [...CLIENT_MERGE_FIELDS, ...USER_MERGE_FIELDS])
      expect(Object.hasOwn(values, f.key)).toBe(true);
  });

  it("gives custom fields as text, and knows defined ones without a value", () => {
    expect(values).toMatchObject({
      "client.plan": "gold",
      "client.seats": "12",
      "client.vip": "Yes",
      "client.regions": "North, West",
      "client.empty": null,
      "client.renewal": null,
    });
  });

  it("never lets a custom field hide a standard one", () => {
    expect(mergeValuesOf({ name: "Ann", custom: { name: "Bob" } }, null)["client.name"]).toBe("Ann");
  });

  it("has no user fields without a user", () => {
    expect(Object.hasOwn(mergeValuesOf(client, null), "user.name")).toBe(false);
  });
});

describe("renderMergeFields", () => {
  const values = mergeValuesOf({ ...client, name: "<b>Ann</b> O'Neil" }, user);

  it("fills fields, uses the fallback for an empty value and nothing without one", () => {
    expect(
      renderMergeFields(
        "Hi {{client.first_name}}, {{client.phone | no phone}} [{{client.job_title}}]",
        values,
      ),
    ).toBe("Hi <b>Ann</b>, no phone []");
  });

  it("escapes values in HTML, and leaves the fallback as written", () => {
    expect(
      renderMergeFields(
        '<p title="{{client.name}}">{{client.company}} {{client.phone|&amp; co}}</p>',
        values,
        {
          html: true,
        },
      ),
    ).toBe('<p title="&lt;b&gt;Ann&lt;/b&gt; O&#39;Neil">Rao &amp; Sons &amp; co</p>');
  });

  it("leaves unknown fields as written, and unknownMergeFields names them", () => {
    const template = "{{client.name}} {{clinet.name}} {{client.nope}} {{clinet.name}}";
    expect(unknownMergeFields(template, values)).toEqual(["clinet.name", "client.nope"]);
    expect(renderMergeFields(template, values)).toBe(
      "<b>Ann</b> O'Neil {{clinet.name}} {{client.nope}} {{clinet.name}}",
    );
  });
});
