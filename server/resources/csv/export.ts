/**
 * CSV export of a resource: the records a list query matches, in its order, streamed chunk by
 * chunk (keyset.ts), so 100,000 rows cost the memory of one chunk.
 *
 * The file starts with a UTF-8 byte order mark: without it Excel reads the file in the
 * machine's legacy code page and garbles every accented letter; other spreadsheets and CSV
 * readers skip it, and our import does too. Header row: the fields' titles (header.ts).
 */
import { Readable } from "node:stream";
import { stringify } from "csv-stringify/sync";
import type { ResourceDefinition } from "../../../resources/contract";
import type { ListQuery } from "../../http/list-query";
import { toRecord } from "../records";
import type { AnyDb } from "../rules";
import { escapeFormula, formatCell } from "./cells";
import { csvColumnsOf } from "./header";
import { readChunks } from "./keyset";
import { labelsOf, relationFieldsOf } from "./relations";

export const BOM = "\ufeff";

/**
 * The export as a stream of CSV text. Resolves once the first chunk is read, so a bad query
 * rejects (a 400) before anything is sent; later chunks are read as the client takes the text
 * (a stream pulls the next chunk only when its buffer drains).
 */
export async function exportCsv(
  db: AnyDb,
  def: ResourceDefinition,
  resolve: (name: string) => ResourceDefinition | undefined,
  query: ListQuery,
): Promise<Readable> {
  const { schema } = def;
  const columns = csvColumnsOf(schema);
  const relations = relationFieldsOf(schema, resolve);
  const relationOf = new Map(relations.map((r) => [r.field, r]));
  const chunks = await readChunks(db, def, query);

  async function* text(): AsyncGenerator<string> {
    yield BOM + stringify([columns.map((c) => c.title)]);
    for await (const rows of chunks) {
      const labels = await labelsOf(db, relations, rows);
      const lines = rows.map((row) => {
        const record = toRecord(schema, row);
        return columns.map((c) => {
          const value = record[c.field];
          if (!relationOf.has(c.field) || value === null) return formatCell(c.schema, value);
          return escapeFormula(labels.get(c.field)?.get(String(value)) ?? String(value));
        });
      });
      yield stringify(lines);
    }
  }
  return Readable.from(text(), { objectMode: false });
}
