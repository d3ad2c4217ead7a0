/**
 * Bad requests for the fuzz test (fuzz.test.ts), beyond the fields of a body
 * (fuzz-values.ts): bodies that break the transport (truncated JSON, invalid UTF-8, wrong
 * content types, malformed multipart) and hostile path and query values.
 */

import { OPERATORS } from "../../schemas/conditions";
import { badValue, type Pools, type Rng } from "./fuzz-values";

/** A request ready for fetch: the path is already percent-encoded (on purpose, sometimes badly). */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** For the failure report: what kind of breakage this is. */
  label: string;
}

const encoder = new TextEncoder();

/** Bodies that break the transport rather than the fields. */
export function brokenRawBody(
  rng: Rng,
  json: string,
): { contentType: string; body: Uint8Array; label: string } {
  switch (rng.int(12)) {
    case 0:
      return {
        contentType: "application/json",
        body: encoder.encode(json.slice(0, rng.int(json.length))),
        label: "truncated JSON",
      };
    case 1: {
      const bytes = encoder.encode(json);
      const bad = new Uint8Array([...bytes.slice(0, 2), 0xff, 0xfe, 0xc3, 0x28, ...bytes.slice(2)]);
      return { contentType: "application/json", body: bad, label: "invalid UTF-8 in JSON" };
    }
    case 2:
      return { contentType: "text/plain", body: encoder.encode(json), label: "JSON as text/plain" };
    case 3:
      return { contentType: "application/xml", body: encoder.encode("<a>1</a>"), label: "XML" };
    case 4:
      return {
        contentType: "application/x-www-form-urlencoded",
        body: encoder.encode("a=1&b=%00&c=%FF"),
        label: "form-urlencoded",
      };
    case 5:
      return {
        contentType: "multipart/form-data",
        body: encoder.encode(json),
        label: "multipart without boundary",
      };
    case 6:
      return { contentType: "application/json", body: new Uint8Array(), label: "empty JSON body" };
    case 7:
      return {
        contentType: rng.pick([
          "a/b/c",
          "application/json; charset=utf-16",
          "image/png",
          "*/*",
          "application/jsonx",
        ]),
        body: encoder.encode(json),
        label: "odd content type",
      };
    case 8:
      return {
        contentType: "application/json",
        body: encoder.encode(`${"[".repeat(20_000)}${"]".repeat(20_000)}`),
        label: "deeply nested JSON",
      };
    case 9:
      return {
        contentType: "application/json",
        body: encoder.encode('{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}'),
        label: "prototype pollution",
      };
    case 10:
      return {
        contentType: "application/json",
        body: encoder.encode(JSON.stringify({ big: "x".repeat(1_100_000) })),
        label: "body over the limit",
      };
    default:
      return { contentType: "application/octet-stream", body: randomBytes(rng, 64), label: "octet-stream" };
  }
}

export function randomBytes(rng: Rng, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.int(256);
  return out;
}

/** A PNG whose header declares `width` × `height` (the pixel data is a few bytes). */
export function pngHeader(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(25);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, 13);
  ihdr.set(encoder.encode("IHDR"), 4);
  view.setUint32(8, width);
  view.setUint32(12, height);
  ihdr.set([8, 2, 0, 0, 0], 16);
  return new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...ihdr, 0, 0, 0, 0]);
}

function part(boundary: string, name: string, value: Uint8Array, filename?: string): Uint8Array {
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"` +
    (filename !== undefined ? `; filename="${filename}"\r\nContent-Type: application/octet-stream` : "") +
    "\r\n\r\n";
  // latin1: a file name's odd bytes (NUL, 0xFF) go out as they are, not re-encoded.
  return new Uint8Array([...Buffer.from(head, "latin1"), ...value, ...encoder.encode("\r\n")]);
}

/** A multipart body, broken in one of the ways a client or a network breaks them. */
export function brokenMultipart(
  rng: Rng,
  pools: Pools,
): { contentType: string; body: Uint8Array; label: string } {
  const boundary = `fuzz${rng.string(8, "abcdef0123456789")}`;
  const files: Array<[string, Uint8Array]> = [
    ["bomb.png", pngHeader(rng.pick([100_000, 65_535, 30_000]), rng.pick([100_000, 65_535, 30_000]))],
    ["corrupt.png", new Uint8Array([...pngHeader(10, 10).slice(0, 33), ...randomBytes(rng, 200)])],
    ["random.bin", randomBytes(rng, 300)],
    ["empty.pdf", new Uint8Array()],
    ["fake.pdf", encoder.encode("%PDF-1.4\n%garbage")],
    [
      "image.svg",
      encoder.encode('<svg xmlns="http://www.w3.org/2000/svg" width="99999999" height="1"></svg>'),
    ],
    ["a\u0000b.png", pngHeader(10, 10)],
    ["../../etc/passwd", encoder.encode("root:x:0:0")],
  ];
  const [filename, data] = rng.pick(files);
  const fields: Uint8Array[] = [];
  if (rng.chance(0.5))
    fields.push(
      part(
        boundary,
        rng.pick(["name", "folderId"]),
        encoder.encode(String(rng.pick(["a\u0000b", "x", ...pools.ids]))),
      ),
    );
  const fileName = rng.chance(0.2) ? "\xff\xfe.png" : filename;
  const full = new Uint8Array([
    ...fields.flatMap((f) => [...f]),
    ...part(boundary, "file", data, fileName),
    ...encoder.encode(`--${boundary}--\r\n`),
  ]);
  switch (rng.int(7)) {
    case 0:
      return {
        contentType: `multipart/form-data; boundary=${boundary}`,
        body: full.slice(0, rng.int(full.length)),
        label: "truncated multipart",
      };
    case 1:
      return { contentType: "multipart/form-data", body: full, label: "multipart without boundary" };
    case 2:
      return { contentType: "multipart/form-data; boundary=other", body: full, label: "wrong boundary" };
    case 3:
      return {
        contentType: `multipart/form-data; boundary=${boundary}`,
        body: randomBytes(rng, 500),
        label: "garbage multipart",
      };
    case 4: {
      const many = Array.from({ length: 30 }, (_, i) => part(boundary, `f${i}`, encoder.encode("v")));
      return {
        contentType: `multipart/form-data; boundary=${boundary}`,
        body: new Uint8Array([...many.flatMap((p) => [...p]), ...full]),
        label: "too many fields",
      };
    }
    default:
      return {
        contentType: `multipart/form-data; boundary=${boundary}`,
        body: full,
        label: `multipart ${filename}`,
      };
  }
}

/** Hostile values for a path segment, percent-encoded as sent (some deliberately invalid). */
export function pathValue(rng: Rng, pools: Pools): string {
  const roll = rng.int(20);
  if (roll < 5 && pools.ids.length) return rng.pick(pools.ids);
  if (roll < 7 && pools.refs.length) return encodeURI(rng.pick(pools.refs));
  return rng.pick([
    "%00",
    "a%00b",
    "%C3%28",
    "%FF",
    "%E2%82",
    "%",
    "9".repeat(40),
    "-1",
    "0",
    "1.5",
    "1e308",
    "NaN",
    "null",
    "..%2F..%2Fetc%2Fpasswd",
    "x".repeat(rng.pick([100, 3000])),
    encodeURIComponent("é中😀"),
    "%2F",
    rng.uuid().toUpperCase(),
    `${rng.uuid()}%00`,
    encodeURIComponent(rng.string(12)),
  ]);
}

/** Hostile query strings (already encoded): paging, sorts, filters, search. */
export function queryString(rng: Rng, names: string[], pools: Pools): string {
  const params: string[] = [];
  const field = () => (pools.fields.length && rng.chance(0.8) ? rng.pick(pools.fields) : rng.string(6));
  const filter = (): unknown => {
    // Every operator of the condition language, and names that are none.
    const op = rng.pick([...OPERATORS, "bogus", "constructor", "toString"]);
    return { field: field(), operator: op, value: rng.chance(0.5) ? badValue(rng) : rng.string(4) };
  };
  const filtersValue = (): string => {
    switch (rng.int(8)) {
      case 0:
        return "[";
      case 1:
        return rng.pick(["{}", "null", "[null]", "[1]", '"x"', "[[]]"]);
      case 2:
        return JSON.stringify([
          { operator: rng.pick(["or", "and"]), value: [filter(), rng.pick([null, 1, "x"])] },
        ]);
      case 3: {
        let nested: unknown = filter();
        for (let i = 0; i < rng.pick([5, 20, 200]); i++) nested = { operator: "or", value: [nested] };
        return JSON.stringify([nested]);
      }
      case 4:
        return JSON.stringify([
          { field: field(), operator: "between", value: [badValue(rng), badValue(rng)] },
        ]);
      default:
        return JSON.stringify(Array.from({ length: 1 + rng.int(3) }, filter)).slice(0, 12_000);
    }
  };
  const enc = (v: string) => {
    if (rng.chance(0.15)) return rng.pick(["%00", "%FF", "%C3%28", "a%00", "%E2%82", "%ED%A0%80"]);
    try {
      return encodeURIComponent(v);
    } catch {
      return "%ED%A0%80"; // a lone surrogate, as the bytes a sloppy client would send
    }
  };
  const value = (name: string): string => {
    switch (name) {
      case "page":
      case "pageSize":
      case "limit":
      case "count":
      case "w":
        return enc(
          String(
            rng.pick([
              "-1",
              "0",
              "1.5",
              "abc",
              "1e400",
              "99999999999999999999",
              "9007199254740993",
              "4611686018427387904",
              "",
              "2",
              "1000001",
              " 1",
              "0x10",
            ]),
          ),
        );
      case "sort":
        return enc(
          rng.pick(["-", "--price", "name,,", `-${field()}`, `${field()},-${field()}`, "id;drop", "\u0000"]),
        );
      case "filters":
        return enc(filtersValue());
      default:
        return enc(String(rng.chance(0.5) ? badValue(rng) : rng.pick([...pools.ids, "x"])).slice(0, 5000));
    }
  };
  const all = [...names, "page", "pageSize", "sort", "filters", "q"];
  const n = 1 + rng.int(3);
  for (let i = 0; i < n; i++) {
    const name = rng.chance(0.9) ? rng.pick(all) : rng.string(5);
    params.push(`${encodeURIComponent(name)}=${value(name)}`);
    if (rng.chance(0.05)) params.push(`${encodeURIComponent(name)}=${value(name)}`); // repeated
  }
  return params.join("&");
}
