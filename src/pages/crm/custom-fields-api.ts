/** The custom field calls (`/crm/custom-fields`, docs/crm-api.md), with the session rules of every client. */
import { createServiceClient } from "../../../providers/http";
import type { CustomField, CustomFieldType } from "../../../schemas/custom-fields";
import { keyFromName } from "../../lib/key-from-name";

const crm = createServiceClient("crm");

export interface CustomFieldBody {
  entity: string;
  key: string;
  label: string;
  type: CustomFieldType;
  list: string | null;
  required: boolean;
  description: string | null;
}

export const customFieldsApi = {
  create: async (body: CustomFieldBody): Promise<CustomField> =>
    (await crm.post<CustomField>("/custom-fields", body, { idempotent: true })).data,
  update: async (id: string, body: Partial<CustomFieldBody>): Promise<CustomField> =>
    (await crm.patch<CustomField>(`/custom-fields/${encodeURIComponent(id)}`, body)).data,
  remove: async (id: string): Promise<void> => {
    await crm.delete(`/custom-fields/${encodeURIComponent(id)}`);
  },
  reorder: async (entity: string, ids: string[]): Promise<void> => {
    await crm.put("/custom-fields/order", { entity, ids });
  },
};

/**
 * A key from a label, as the form proposes it: lower case, words joined by `_`, starting with
 * a letter, at most 40 characters.
 *
 * @example
 * keyOfLabel("Industry size (staff)"); // "industry_size_staff"
 */
export function keyOfLabel(label: string): string {
  // The one way keys are made from names (src/lib/key-from-name.ts), in this key's alphabet.
  return keyFromName(label, { separator: "_", maxLength: 40, startWithLetter: true });
}
