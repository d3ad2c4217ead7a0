/** jsonb as the drivers answer it: parsed on PostgreSQL, sometimes text elsewhere (PGlite). */
export const parsedJson = <T>(value: unknown): T =>
  (typeof value === "string" ? JSON.parse(value) : value) as T;
