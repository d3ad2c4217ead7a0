/**
 * JSON Schema pieces that many routes' params share: a uuid, and `{ id }` as a uuid. One
 * definition, so the validation and the OpenAPI document say the same everywhere.
 */
export const uuid = { type: "string", format: "uuid" } as const;

/** `/:id` where the id is a uuid. */
export const idParams = { type: "object", required: ["id"], properties: { id: uuid } } as const;
