/**
 * A place search everywhere looks in (server/search/search.service.ts): an engine resource,
 * derived from its definition (resource-sources.ts), or a module's table outside the engine
 * (module-sources.ts). Each is one part of one SQL statement; each part reads the search's
 * values from the same numbered parameters (PARAMS).
 */
import type { Principal } from "../auth/principal";

/**
 * The statement's parameters, by number: every part reads the same ones.
 * - `$1` the text anywhere (`%term%`), `$2` at the start (`term%`), `$3` the text in lower case
 *   (an exact title), `$4` at the start of a later word (`% term%`): LIKE patterns, escaped;
 * - `$5` the hits per part, `$6` the candidates a part ranks (its limit on matches read).
 */
export const PARAMS = {
  anywhere: "$1",
  start: "$2",
  exact: "$3",
  wordStart: "$4",
  limit: "$5",
  candidates: "$6",
};

/** What one part selects, as SQL expressions over its `from`. */
export interface SearchPart {
  /** `from` and any join, its row aliased `t` (`products t`). */
  from: string;
  /** Conditions every row of the part meets besides matching (`t.source_id is null`). */
  where?: string;
  /** The record's name (text, never null). */
  title: string;
  /**
   * The name as stored, matched against the text's start (`$2`): a bare column, so that its
   * trigram index serves the match (an expression around it, a `coalesce`, would not be).
   */
  name: string;
  /** A line under the name (text, may be null). */
  subtitle: string;
  /** A value the path needs besides the id (text, may be null): an entry's type, an asset's folder. */
  extra?: string;
  /** The expressions matched against `$1` (text): the searched fields. */
  searched: readonly string[];
}

export interface SearchSource {
  /** The group's key: a resource's name, or a module source's (`users`). */
  key: string;
  label: string;
  icon: string;
  /** Whether the signed-in person may see this source's records (the same rule as its routes). */
  allowed(principal: Principal): boolean;
  part: SearchPart;
  /** Where the admin app opens a hit, under `/manage`. */
  path(hit: { id: string; title: string; extra: string | null }): string;
}

/** A subtitle from some text expressions: the non-empty ones joined with " · ", at most 160 characters. */
export function subtitleSql(expressions: readonly string[]): string {
  if (!expressions.length) return "null::text";
  return `nullif(left(concat_ws(' · ', ${expressions.map((e) => `nullif(${e}, '')`).join(", ")}), 160), '')`;
}
