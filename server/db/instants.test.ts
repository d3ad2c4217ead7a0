/** The fast timestamptz reader gives what pg's own parser gives, for every form the server sends. */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { instantText, parseInstant } from "./instants";

const pgParse = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => unknown;

const same = (text: string) => {
  const ours = parseInstant(text);
  const theirs = pgParse(text);
  if (theirs instanceof Date) {
    expect((ours as Date).getTime(), text).toBe(theirs.getTime());
    expect(instantText(text), text).toBe(theirs.toISOString());
  } else {
    expect(ours, text).toEqual(theirs);
    expect(instantText(text), text).toEqual(theirs);
  }
};

describe("parseInstant and instantText", () => {
  it("reads what a UTC server sends as pg's parser does, fractions of every length included", () => {
    same("2026-11-29 00:52:14+00");
    same("2026-11-29 00:52:14.054+00");
    same("2026-11-29 00:52:14.054123+00");
    same("1999-12-31 23:59:59.999999+00");
    same("0100-01-01 00:00:00+00");
    // Fractions whose float times 1000 falls just under a whole millisecond.
    for (let i = 0; i < 1000; i++) same(`2026-03-04 05:06:07.${String(i).padStart(3, "0")}+00`);
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    for (let i = 0; i < 2000; i++) {
      const iso = new Date(Math.floor(random() * 4e12)).toISOString();
      const micros = String(Math.floor(random() * 1e6))
        .padStart(6, "0")
        .slice(0, 1 + Math.floor(random() * 6));
      same(`${iso.slice(0, 10)} ${iso.slice(11, 19)}.${micros}+00`);
    }
  });

  it("leaves every other form to pg's parser", () => {
    for (const text of [
      "2026-11-29 00:52:14.054+05:30",
      "2026-11-29 00:52:14-08",
      "0050-06-01 12:00:00+00",
      "0010-06-01 12:00:00+00 BC",
      "infinity",
      "-infinity",
      "12345-01-01 00:00:00+00",
    ])
      same(text);
  });
});
