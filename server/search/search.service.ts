/**
 * Search everywhere: one statement over every source the person may see (a part per source,
 * `union all`), each part ranking at most a bounded number of candidates read through its
 * trigram indexes, then grouped by source. Parts are kept per set of sources (a person's
 * grants decide which), sent as prepared statements on PostgreSQL and PGlite alike.
 */
import { CompiledQuery, type Kysely } from "kysely";
import {
  SEARCH_DEFAULT_LIMIT,
  type SearchGroup,
  type SearchHit,
  type SearchResponse,
} from "../../schemas/search";
import type { Principal } from "../auth/principal";
import { prepareStatement } from "../db/prepared";
import { MAX_SHAPES } from "../db/statements";
import { escapeLike } from "../http/list-filter-sql";
import { PARAMS, type SearchPart, type SearchSource } from "./search-source";

/**
 * Matches a part reads before ranking them. A name that is the text, or starts with it, is read
 * on its own (the first branch of each part), so a common word cannot crowd it out.
 */
export const SEARCH_CANDIDATES = 200;

/** Texts shorter than this (in characters) hold no trigram: they match the start of names only. */
export const SHORT_TEXT = 3;

interface Row {
  source: number;
  id: string;
  title: string;
  subtitle: string | null;
  extra: string | null;
  rank: number;
}

/**
 * One source's part: its names starting with the text, and its matches anywhere, ranked. Each
 * branch reads a `materialized` CTE, so it is planned for all its matches (its field's trigram
 * index unless the text is common) and run only as far as its `limit` reads: planned under the
 * limit, a branch looks cheapest as a sequential scan that stops early, which reads the whole
 * table when the text is rare (and a kept statement's generic plan, knowing no text, always
 * plans so). A branch per searched field, not one `or`, for the same reason.
 */
function partSql(index: number, part: SearchPart, short: boolean): { ctes: string[]; select: string } {
  const { anywhere, start, exact, wordStart, limit, candidates } = PARAMS;
  const where = part.where ? `(${part.where}) and ` : "";
  const columns = `t.id::text as id, ${part.title} as title, ${part.subtitle} as subtitle, ${part.extra ?? "null::text"} as extra`;
  const ctes: string[] = [];
  const branches: string[] = [];
  const branch = (match: string, max: string) => {
    const name = `s${index}_${ctes.length}`;
    ctes.push(`${name} as materialized (select ${columns} from ${part.from} where ${where}${match})`);
    branches.push(`  (select * from ${name} limit ${max})`);
  };
  branch(`${part.name} ilike ${start}`, limit);
  // A text of one or two characters holds no trigram to look up: names starting with it only.
  if (!short) for (const field of part.searched) branch(`${field} ilike ${anywhere}`, candidates);
  const select = [
    `(select ${index} as source, c.id, c.title, c.subtitle, c.extra,`,
    `  case when lower(c.title) = ${exact} then 0 when c.title ilike ${start} then 1`,
    `    when c.title ilike ${wordStart} then 2 else 3 end as rank`,
    "from (",
    branches.join("\n  union\n"),
    ") c",
    `order by rank, lower(c.title), c.id limit ${limit})`,
  ].join("\n");
  return { ctes, select };
}

/** The statement over some parts: their CTEs, then their selects one after another. */
function statementSql(parts: ReadonlyArray<{ index: number; part: SearchPart }>, short: boolean): string {
  const built = parts.map(({ index, part }) => partSql(index, part, short));
  // Every parameter typed, even where a short text's statement reads none of the anywhere ones.
  const typed = `params as (select ${PARAMS.anywhere}::text as anywhere, ${PARAMS.candidates}::int as candidates)`;
  const ctes = [typed, ...built.flatMap((b) => b.ctes)];
  return `with ${ctes.join(",\n")}\n${built.map((b) => b.select).join("\nunion all\n")}`;
}

export class SearchService {
  /** Statement texts by the sources they read (a set of grants). */
  private readonly texts = new Map<string, string>();

  constructor(
    // biome-ignore lint/suspicious/noExplicitAny: raw statements over many tables.
    private readonly db: Kysely<any>,
    private readonly sources: readonly SearchSource[],
  ) {}

  /** The sources a person may see. */
  allowedFor(principal: Principal): SearchSource[] {
    return this.sources.filter((s) => s.allowed(principal));
  }

  private statement(indexes: readonly number[], short: boolean): string {
    const key = `${short ? "short:" : ""}${indexes.join(",")}`;
    let text = this.texts.get(key);
    if (text === undefined) {
      text = statementSql(
        indexes.map((index) => ({ index, part: this.sources[index].part })),
        short,
      );
      if (this.texts.size < MAX_SHAPES) {
        this.texts.set(key, text);
        prepareStatement(text);
      }
    }
    return text;
  }

  /** The statement of a search with its values (null: the person may see no source); bench/search.ts explains it. */
  compiled(principal: Principal, q: string, limit = SEARCH_DEFAULT_LIMIT): CompiledQuery | null {
    const indexes = this.sources.flatMap((s, i) => (s.allowed(principal) ? [i] : []));
    if (!indexes.length) return null;
    const term = escapeLike(q);
    const params = [`%${term}%`, `${term}%`, q.toLowerCase(), `% ${term}%`, limit, SEARCH_CANDIDATES];
    return CompiledQuery.raw(this.statement(indexes, q.length < SHORT_TEXT), params);
  }

  /**
   * Records matching `q` in every source `principal` may see, at most `limit` per source,
   * grouped by source in order of their best hit.
   */
  async search(principal: Principal, q: string, limit = SEARCH_DEFAULT_LIMIT): Promise<SearchResponse> {
    const query = this.compiled(principal, q, limit);
    if (!query) return { q, groups: [] };
    const { rows } = await this.db.executeQuery<Row>(query);
    const groups = new Map<number, { best: number; hits: SearchHit[] }>();
    for (const row of rows) {
      const source = this.sources[row.source];
      let group = groups.get(row.source);
      if (!group) {
        group = { best: row.rank, hits: [] };
        groups.set(row.source, group);
      }
      group.best = Math.min(group.best, row.rank);
      group.hits.push({
        id: row.id,
        title: row.title,
        subtitle: row.subtitle,
        path: source.path({ id: row.id, title: row.title, extra: row.extra }),
      });
    }
    const ordered = [...groups].sort(([a, x], [b, y]) => x.best - y.best || a - b);
    return {
      q,
      groups: ordered.map(([index, { hits }]): SearchGroup => {
        const { key, label, icon } = this.sources[index];
        return { resource: key, label, icon, hits, more: hits.length >= limit };
      }),
    };
  }
}
