/**
 * Values for the fuzz test (fuzz.test.ts): a seeded PRNG, and values built from a route's
 * JSON Schema then broken (wrong types, missing and extra fields, huge strings, deep nesting,
 * NUL, bad dates and numbers). Everything is drawn from one `Rng`, so a seed replays a run.
 */

/** A small, fast, seedable PRNG (mulberry32). */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  /** A version-4 shaped UUID drawn from this generator (so a seed replays it). */
  uuid(): string {
    const hex = this.string(32, "0123456789abcdef");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
  }
  string(length: number, alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-_. "): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI schemas are inspected loosely.
export type Schema = Record<string, any>;

/** What the fuzzer knows of the seeded data: ids to put in paths and bodies. */
export interface Pools {
  ids: string[];
  /** Other valid path values (slugs, device ids, storage keys). */
  refs: string[];
  /** Field names of list answers, for sorts and filters that reach the SQL. */
  fields: string[];
}

const deep = (depth: number, leaf: unknown = 1): unknown => {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};
const deepObject = (depth: number): unknown => {
  let v: unknown = { a: 1 };
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};

/** Values that break a field: wrong types, edges of numbers and dates, NUL, size. */
export function badValue(rng: Rng): unknown {
  const pick = rng.int(34);
  switch (pick) {
    case 0:
      return null;
    case 1:
      return true;
    case 2:
      return 0;
    case 3:
      return -1;
    case 4:
      return 1.5;
    case 5:
      return 1e308;
    case 6:
      return -1e308;
    case 7:
      return 2 ** 63;
    case 8:
      return 2 ** 53 + 2;
    case 9:
      return "";
    case 10:
      return "\u0000";
    case 11:
      return `a\u0000b${rng.string(5)}`;
    case 12:
      return "x".repeat(rng.pick([256, 2001, 70_000, 300_000]));
    case 13:
      return "\ud800";
    case 14:
      return [];
    case 15:
      return {};
    case 16:
      return deep(rng.pick([50, 500, 1500]));
    case 17:
      return deepObject(rng.pick([50, 500]));
    case 18:
      return "2024-02-30";
    case 19:
      return "+275760-09-13T00:00:00.000Z";
    case 20:
      return "0000-01-01T00:00:00Z";
    case 21:
      return "1e400";
    case 22:
      return "NaN";
    case 23:
      return "😀".repeat(rng.pick([1, 100, 3000]));
    case 24:
      return "' OR 1=1 --";
    case 25:
      return "%00";
    case 26:
      return Array.from({ length: rng.pick([3, 1001, 6000]) }, () => rng.uuid());
    case 27:
      return "00000000-0000-0000-0000-000000000000";
    case 28:
      return "not a uuid";
    case 29:
      return JSON.parse('{"__proto__":{"polluted":true}}');
    case 30:
      return -0.000001;
    case 31:
      return "a@b";
    case 32:
      return "javascript:alert(1)";
    default:
      return rng.string(rng.int(40));
  }
}

/** A value that satisfies `schema` as far as a quick generator can (formats, enums, ranges). */
export function validValue(schema: Schema, rng: Rng, pools: Pools, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return rng.pick(schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches) && branches.length)
    return validValue(rng.pick(branches), rng, pools, depth + 1);
  if (Array.isArray(schema.allOf) && schema.allOf.length)
    return validValue(schema.allOf[0], rng, pools, depth + 1);
  const type = Array.isArray(schema.type)
    ? rng.pick(schema.type.filter((t: string) => t !== "null"))
    : (schema.type ?? (schema.properties ? "object" : "string"));
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const required: string[] = schema.required ?? [];
      for (const [key, sub] of Object.entries<Schema>(schema.properties ?? {})) {
        if (required.includes(key) || rng.chance(0.6)) out[key] = validValue(sub, rng, pools, depth + 1);
      }
      return out;
    }
    case "array": {
      const min = schema.minItems ?? 0;
      const n = min + rng.int(3);
      return Array.from({ length: n }, () => validValue(schema.items ?? {}, rng, pools, depth + 1));
    }
    case "integer":
    case "number": {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
      const max = Math.min(schema.maximum ?? min + 1000, min + 1000);
      const n = min + rng.next() * (max - min);
      return type === "integer" ? Math.floor(n) : Math.round(n * 100) / 100;
    }
    case "boolean":
      return rng.chance(0.5);
    case "null":
      return null;
    default:
      return validString(schema, rng, pools);
  }
}

function validString(schema: Schema, rng: Rng, pools: Pools): string {
  switch (schema.format) {
    case "uuid":
      return rng.chance(0.8) && pools.ids.length ? rng.pick(pools.ids) : rng.uuid();
    case "email":
      return `fuzz-${rng.string(6, "abcdef0123456789")}@example.com`;
    case "date-time":
      return new Date(Date.UTC(2024, rng.int(12), 1 + rng.int(28))).toISOString();
    case "date":
      return `2024-0${1 + rng.int(9)}-1${rng.int(10)}`;
    case "uri":
      return `https://example.com/${rng.string(6, "abcdef")}`;
    default: {
      const min = schema.minLength ?? 1;
      const max = Math.max(min, Math.min(schema.maxLength ?? 20, 20));
      return rng.string(min + rng.int(max - min + 1), "abcdefghijklmnopqrstuvwxyz0123456789");
    }
  }
}

/** Paths (`a.b.0`) of every value inside a JSON value, the root as "". */
function pathsOf(value: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  out.push(prefix);
  if (value && typeof value === "object" && out.length < 200) {
    for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], out);
  }
  return out;
}

function setAt(root: unknown, path: string[], value: unknown): unknown {
  if (!path.length) return value;
  // biome-ignore lint/suspicious/noExplicitAny: walking arbitrary JSON.
  let node: any = root;
  for (const key of path.slice(0, -1)) node = node[key];
  node[path[path.length - 1]] = value;
  return root;
}

/** A body for `schema`, broken in one or a few ways. */
export function brokenJson(schema: Schema | undefined, rng: Rng, pools: Pools): unknown {
  const base = schema ? validValue(schema, rng, pools) : { value: rng.string(8) };
  let value: unknown = base;
  const times = 1 + rng.int(3);
  for (let i = 0; i < times; i++) {
    const kind = rng.int(6);
    if (kind === 0 && value && typeof value === "object" && !Array.isArray(value)) {
      const keys = Object.keys(value);
      if (keys.length) delete (value as Record<string, unknown>)[rng.pick(keys)];
    } else if (kind === 1 && value && typeof value === "object" && !Array.isArray(value)) {
      (value as Record<string, unknown>)[rng.pick(["extra", "__proto__", "constructor", "id", "\u0000"])] =
        badValue(rng);
    } else if (kind === 2 && rng.chance(0.3)) {
      value = badValue(rng);
    } else if (kind === 5) {
      // A valid body now and then: the route's own success path gets fuzzed input too.
      value = schema ? validValue(schema, rng, pools) : value;
    } else {
      const paths = pathsOf(value).filter((p) => p.length);
      if (paths.length) value = setAt(value, rng.pick(paths), badValue(rng));
    }
  }
  return value;
}
