/**
 * PostgreSQL's text of a `timestamptz` read into a Date, faster than pg's own parser
 * (postgres-date, a regular expression and several more per value) for the form a server in
 * UTC sends: `2026-11-29 00:52:14.054123+00`. Every row of every list carries two or more;
 * on a list of 25 that parser was a tenth of the request's time in node. Any other form
 * (another offset, a year before 100, BC, infinity) goes to pg's parser, so every value reads
 * exactly as before: the same Date, the fraction cut to milliseconds the same way.
 */
import pg from "pg";

const parseOther = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => unknown;

const DASH = 45;
const SPACE = 32;
const COLON = 58;
const DOT = 46;

const two = (text: string, at: number) => (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;

/** Whether `text` is in the form read here (else pg's parser reads it). */
function isUtcForm(text: string): boolean {
  const n = text.length;
  return !(
    n < 22 ||
    text.charCodeAt(4) !== DASH ||
    text.charCodeAt(7) !== DASH ||
    text.charCodeAt(10) !== SPACE ||
    text.charCodeAt(13) !== COLON ||
    text.charCodeAt(16) !== COLON ||
    text.charCodeAt(n - 3) !== 43 /* + */ ||
    text.charCodeAt(n - 2) !== 48 ||
    text.charCodeAt(n - 1) !== 48 ||
    (n > 22 && text.charCodeAt(19) !== DOT) ||
    // Date.UTC reads years 0–99 as 1900–1999; pg's parser puts them right.
    !(two(text, 0) * 100 + two(text, 2) >= 100)
  );
}

/** The milliseconds of the fraction, as pg's parser has Date.UTC compute them (cut, not rounded). */
const millisOf = (text: string) => (text.length > 22 ? 1000 * Number.parseFloat(text.slice(19, -3)) : 0);

export function parseInstant(text: string): unknown {
  if (!isUtcForm(text)) return parseOther(text);
  return new Date(
    Date.UTC(
      two(text, 0) * 100 + two(text, 2),
      two(text, 5) - 1,
      two(text, 8),
      two(text, 11),
      two(text, 14),
      two(text, 17),
      millisOf(text),
    ),
  );
}

/**
 * The ISO 8601 text (`toISOString`) of the instant PostgreSQL sent as `text`, without making
 * a Date: a list's rows are read this way (server/db/prepared.ts `instantsAsText`), since
 * all the API does with their instants is write them so. Anything else than a Date's text
 * (infinity) is what pg's parser makes of it.
 */
export function instantText(text: string): unknown {
  if (!isUtcForm(text)) {
    const value = parseOther(text);
    return value instanceof Date ? value.toISOString() : value;
  }
  const ms = Math.trunc(millisOf(text));
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${ms < 10 ? "00" : ms < 100 ? "0" : ""}${ms}Z`;
}
