import { describe, expect, it } from "vitest";
import { clientSchema } from "./crm-clients";
import { mergeRecords } from "./crm-merge";

describe("merging duplicate clients", () => {
  const primary = {
    id: "a",
    name: "Asha",
    email: "asha@example.com",
    phone: null,
    tags: ["vip"],
    consent_email: false,
    sms_opted_out_at: null,
    last_activity_at: "2024-01-01T00:00:00.000Z",
    created_at: "2023-01-01T00:00:00.000Z",
  };
  const duplicate = {
    id: "b",
    name: "Asha K",
    email: null,
    phone: "+919876543210",
    tags: ["newsletter", "vip"],
    consent_email: true,
    sms_opted_out_at: "2024-02-01T00:00:00.000Z",
    last_activity_at: "2024-03-01T00:00:00.000Z",
    created_at: "2022-01-01T00:00:00.000Z",
  };

  it("keeps the primary's values, fills its empty ones, unites lists, keeps an opt-out", () => {
    const { changes, conflicts } = mergeRecords(clientSchema, primary, [duplicate]);
    expect(changes).toEqual({
      phone: "+919876543210",
      tags: ["vip", "newsletter"],
      sms_opted_out_at: "2024-02-01T00:00:00.000Z",
      last_activity_at: "2024-03-01T00:00:00.000Z",
    });
    expect(conflicts).toEqual([
      {
        field: "name",
        values: [
          { id: "a", value: "Asha" },
          { id: "b", value: "Asha K" },
        ],
      },
      {
        field: "consent_email",
        values: [
          { id: "a", value: false },
          { id: "b", value: true },
        ],
      },
    ]);
  });

  it("takes the first duplicate's value when several could fill a field", () => {
    const other = { ...duplicate, id: "c", phone: "+441234567890" };
    expect(mergeRecords(clientSchema, primary, [duplicate, other]).changes.phone).toBe("+919876543210");
  });
});
