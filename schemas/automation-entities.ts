/** The entities automations reach, as the server lists them and the builder reads them. Pure types. */

/** An entity's field as the builder offers it (GET /api/automations/entities). */
export interface EntityField {
  key: string;
  title: string;
  /** The JSON Schema type, null left out ("string", "integer", "array", …). */
  type: string;
  format?: string;
  /** Whether an automation's step may set it. */
  writable: boolean;
  enum?: readonly unknown[];
}

/** An entity an automation may start on or write to, with its fields. */
export interface EntitySummary {
  name: string;
  label: string;
  singular: string;
  fields: readonly EntityField[];
}
