/**
 * The CRM's custom field definitions (issue 16): part of the one Database interface (types.ts).
 * Their values live in the `custom` column of clients and opportunities (types-crm.ts).
 */
import type { ColumnType, Generated } from "kysely";
import type { CustomFieldType } from "../../schemas/custom-fields";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface CrmCustomFieldsTable {
  id: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  updated_by: string | null;
  entity: string;
  key: string;
  label: string;
  type: CustomFieldType;
  list: string | null;
  required: Generated<boolean>;
  position: Generated<number>;
  description: string | null;
}

export interface CrmFieldTables {
  crm_custom_fields: CrmCustomFieldsTable;
}
