/**
 * The SQL reading of the condition language (schemas/conditions.ts, whose pure evaluator reads
 * it the same way; tests/server/conditions-agree.test.ts holds them to that): Refine
 * CrudFilters over a list's declared fields become a Kysely WHERE expression, every value
 * checked against its field's type and bound as a parameter.
 */
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import type { CrudFilter, LogicalFilter } from "../../schemas/conditions";
import { isTimeOfDay } from "../../schemas/formats";
import { badRequest } from "./errors";

/**
 * How a filter value is checked and bound: `date` is an instant or a day (bound as ISO text in
 * UTC, so a `date` column reads the day that was sent), `time` a time of day without a zone,
 * `uuids` a `uuid[]` column, which `eq`/`in` match when it holds any of the values (`ne`/`nin`
 * when it holds none).
 */
export type FieldType = "string" | "number" | "integer" | "boolean" | "date" | "time" | "uuid" | "uuids";

/**
 * What reading filters needs of a list's options (list-query.ts's ListOptions), declared here so
 * this file does not import list-query.ts, which builds on it.
 */
export interface FilterScope {
  /** Table alias prefixed to column names. */
  table: string;
  filterFields?: Readonly<Record<string, FieldType>>;
  /** Fields that are not columns of `table`: the SQL expression that reads each. */
  expressions?: Readonly<Record<string, Expression<unknown>>>;
}

export const invalidFilters = (message: string, field = "filters") =>
  badRequest("Invalid filters", [{ field, message }]);

const LIKE: Record<string, (v: string) => string> = {
  contains: (v) => `%${v}%`,
  ncontains: (v) => `%${v}%`,
  startswith: (v) => `${v}%`,
  nstartswith: (v) => `${v}%`,
  endswith: (v) => `%${v}`,
  nendswith: (v) => `%${v}`,
};
export const escapeLike = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);
const CMP: Record<string, "=" | "<>" | "<" | ">" | "<=" | ">="> = {
  eq: "=",
  ne: "<>",
  lt: "<",
  gt: ">",
  lte: "<=",
  gte: ">=",
};

const INT32_MAX = 2_147_483_647;

function coerce(value: unknown, type: FieldType, field: string): unknown {
  const bad = () =>
    badRequest("Invalid filters", [{ field: `filters.${field}`, message: `must be a ${type}` }]);
  if (value === null) return null;
  if (type === "number" || type === "integer") {
    const n = typeof value === "number" ? value : Number(value);
    if (!Number.isFinite(n) || value === "" || typeof value === "boolean") throw bad();
    // Integer columns are 32-bit: a bigger or fractional value cannot match, and PostgreSQL
    // would refuse to compare it rather than answer "no rows".
    if (type === "integer" && (!Number.isInteger(n) || Math.abs(n) > INT32_MAX)) {
      throw badRequest("Invalid filters", [
        {
          field: `filters.${field}`,
          message: `must be a whole number between -${INT32_MAX} and ${INT32_MAX}`,
        },
      ]);
    }
    return n;
  }
  if (type === "boolean") {
    if (value === true || value === "true") return true;
    if (value === false || value === "false") return false;
    throw bad();
  }
  if (type === "uuid") {
    if (
      typeof value !== "string" ||
      !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
    ) {
      throw bad();
    }
    return value;
  }
  if (type === "date") {
    const d = new Date(String(value));
    if (Number.isNaN(d.getTime())) throw bad();
    // JavaScript dates reach year 275760; PostgreSQL cannot read those years back as text.
    const year = d.getUTCFullYear();
    if (year < 1 || year > 9999) {
      throw badRequest("Invalid filters", [
        { field: `filters.${field}`, message: "must be a date between the years 1 and 9999" },
      ]);
    }
    // Text, not the Date: pg would write a Date in the server's local time, and a `date`
    // column compared with it would take the local day, one off west of Greenwich.
    return d.toISOString();
  }
  if (type === "time") {
    if (typeof value !== "string" || !isTimeOfDay(value)) {
      throw badRequest("Invalid filters", [
        { field: `filters.${field}`, message: "must be a time of day written HH:MM or HH:MM:SS" },
      ]);
    }
    return value;
  }
  if (typeof value !== "string" && typeof value !== "number") throw bad();
  return String(value);
}

/** A declared field as SQL: its expression, or the column of the list's table. */
export function fieldRef(eb: AnyExpressionBuilder, field: string, options: FilterScope): Expression<unknown> {
  const expression = options.expressions?.[field];
  return expression && Object.hasOwn(options.expressions ?? {}, field)
    ? expression
    : eb.ref(`${options.table}.${field}`);
}

// biome-ignore lint/suspicious/noExplicitAny: filters work on any table's expression builder.
type AnyExpressionBuilder = ExpressionBuilder<any, any>;

/**
 * Filters read and checked, before any SQL: each value coerced to its field's type, in the
 * order the WHERE clause binds it. One reading serves the SQL (`plannedExpression`) and the
 * statement's shape (`plannedShape`, for a list's statement kept across requests).
 */
export type PlannedFilter =
  | { kind: "true" }
  | { kind: "group"; op: "or" | "and"; parts: PlannedFilter[] }
  | { kind: "null"; field: string; not: boolean }
  | { kind: "cmp"; field: string; op: (typeof CMP)[string]; value: unknown }
  | { kind: "in"; field: string; not: boolean; values: unknown[] }
  | { kind: "between"; field: string; from: unknown; to: unknown }
  | { kind: "like"; field: string; not: boolean; pattern: string }
  | { kind: "uuids"; field: string; not: boolean; ids: unknown[] };

/** Reads Refine CrudFilters over declared fields; a filter the list cannot take is a 400. */
export function planFilters(filters: CrudFilter[], options: FilterScope): PlannedFilter {
  const fields = options.filterFields ?? {};
  const one = (f: CrudFilter): PlannedFilter => {
    if (f.operator === "or" || f.operator === "and") {
      if (!Array.isArray(f.value))
        throw badRequest("Invalid filters", [{ field: "filters", message: `${f.operator} needs a list` }]);
      const parts = (f.value as CrudFilter[]).map(one);
      return parts.length ? { kind: "group", op: f.operator, parts } : { kind: "true" };
    }
    const { field, operator, value } = f as LogicalFilter;
    const type = typeof field === "string" && Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (!type)
      throw badRequest("Invalid filters", [
        { field: "filters", message: `cannot filter by '${String(field)}'` },
      ]);
    if (operator === "null" || operator === "nnull")
      return { kind: "null", field, not: operator === "nnull" };
    if (value === undefined || value === "" || (Array.isArray(value) && !value.length))
      return { kind: "true" };
    if (typeof operator !== "string")
      throw invalidFilters("each filter needs an operator", `filters.${field}`);
    if (type === "uuids") return holdsAny(field, operator, value);
    if (Object.hasOwn(CMP, operator))
      return { kind: "cmp", field, op: CMP[operator], value: coerce(value, type, field) };
    if (operator === "in" || operator === "nin") {
      const values = (Array.isArray(value) ? value : [value]).map((v) => coerce(v, type, field));
      return { kind: "in", field, not: operator === "nin", values };
    }
    if (operator === "between") {
      if (!Array.isArray(value) || value.length !== 2)
        throw badRequest("Invalid filters", [
          { field: `filters.${field}`, message: "between needs two values" },
        ]);
      return {
        kind: "between",
        field,
        from: coerce(value[0], type, field),
        to: coerce(value[1], type, field),
      };
    }
    if (Object.hasOwn(LIKE, operator)) {
      const pattern = LIKE[operator](escapeLike(String(value)));
      return { kind: "like", field, not: operator.startsWith("n"), pattern };
    }
    throw badRequest("Invalid filters", [
      { field: "filters", message: `unknown operator '${String(operator)}'` },
    ]);
  };
  return { kind: "group", op: "and", parts: filters.map(one) };
}

/** The WHERE expression of planned filters. */
export function plannedExpression(
  eb: AnyExpressionBuilder,
  planned: PlannedFilter,
  options: FilterScope,
): Expression<SqlBool> {
  const col = (field: string) => fieldRef(eb, field, options);
  const sqlOf = (p: PlannedFilter): Expression<SqlBool> => {
    switch (p.kind) {
      case "true":
        return sql<SqlBool>`true`;
      case "group": {
        const parts = p.parts.map(sqlOf);
        return p.op === "or" ? eb.or(parts) : eb.and(parts);
      }
      case "null":
        return eb(col(p.field), p.not ? "is not" : "is", null);
      case "cmp":
        return eb(col(p.field), p.op, p.value);
      case "in":
        return eb(col(p.field), p.not ? "not in" : "in", p.values);
      case "between":
        return eb.and([eb(col(p.field), ">=", p.from), eb(col(p.field), "<=", p.to)]);
      case "like": {
        const text = sql`${col(p.field)}::text`;
        return p.not
          ? sql<SqlBool>`${text} not ilike ${p.pattern}`
          : sql<SqlBool>`${text} ilike ${p.pattern}`;
      }
      case "uuids": {
        const any = sql<SqlBool>`${col(p.field)} && ${sql.val(p.ids)}::uuid[]`;
        return p.not ? sql<SqlBool>`not (${any})` : any;
      }
    }
  };
  return sqlOf(planned);
}

/** Builds a WHERE expression from Refine CrudFilters over declared fields. */
export function filterExpression(
  eb: AnyExpressionBuilder,
  filters: CrudFilter[],
  options: FilterScope,
): Expression<SqlBool> {
  return plannedExpression(eb, planFilters(filters, options), options);
}

/**
 * The shape of planned filters' SQL: the same for every request whose WHERE differs only in
 * its bound values, with those values in order. Null when a field is an expression (a custom
 * field's, which binds values of its own).
 */
export function plannedShape(
  planned: PlannedFilter,
  options: FilterScope,
): { shape: string; params: unknown[] } | null {
  const params: unknown[] = [];
  const column = (field: string) => !options.expressions || !Object.hasOwn(options.expressions, field);
  const shapeOf = (p: PlannedFilter): string | null => {
    if (p.kind === "true") return "T";
    if (p.kind === "group") {
      const parts = p.parts.map(shapeOf);
      return parts.includes(null) ? null : `${p.op}(${parts.join(",")})`;
    }
    if (!column(p.field)) return null;
    switch (p.kind) {
      case "null":
        return `${p.field} ${p.not ? "nnull" : "null"}`;
      case "cmp":
        params.push(p.value);
        return `${p.field}${p.op}`;
      case "in":
        params.push(...p.values);
        return `${p.field} ${p.not ? "nin" : "in"}${p.values.length}`;
      case "between":
        params.push(p.from, p.to);
        return `${p.field} between`;
      case "like":
        params.push(p.pattern);
        return `${p.field} ${p.not ? "nlike" : "like"}`;
      case "uuids":
        params.push(p.ids);
        return `${p.field} ${p.not ? "none" : "any"}`;
    }
  };
  const shape = shapeOf(planned);
  return shape === null ? null : { shape, params };
}

/** A `uuid[]` column holding any (`eq`, `in`) or none (`ne`, `nin`) of the values. */
function holdsAny(field: string, operator: string, value: unknown): PlannedFilter {
  if (!["eq", "in", "ne", "nin"].includes(operator))
    throw badRequest("Invalid filters", [
      { field: `filters.${field}`, message: `'${operator}' does not apply to a list; use eq, in, ne or nin` },
    ]);
  const ids = (Array.isArray(value) ? value : [value]).map((v) => coerce(v, "uuid", field));
  return { kind: "uuids", field, not: operator === "ne" || operator === "nin", ids };
}
