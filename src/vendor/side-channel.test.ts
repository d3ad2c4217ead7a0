import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
type Channel = {
  assert(key: unknown): void;
  delete(key: unknown): boolean;
  get(key: unknown): unknown;
  has(key: unknown): boolean;
  set(key: unknown, value: unknown): void;
};
const lite = require("./side-channel.cjs") as () => Channel;
const real = require("side-channel") as () => Channel;

/** The same calls on a channel, and what each answered. */
function exercise(make: () => Channel) {
  const channel = make();
  const object = {};
  const fn = () => undefined;
  const answers: unknown[] = [channel.has(object), channel.get(object), channel.delete(object)];
  channel.set(object, 1);
  channel.set(fn, 2);
  channel.set("key", 3);
  channel.set(7, 4);
  answers.push(channel.has(object), channel.get(object), channel.get(fn), channel.get("key"), channel.get(7));
  answers.push(
    channel.has({}),
    channel.delete(object),
    channel.has(object),
    channel.delete("key"),
    channel.has("key"),
  );
  answers.push(() => channel.assert(fn));
  let thrown: unknown;
  try {
    channel.assert({});
  } catch (error) {
    thrown = error;
  }
  answers.push(thrown instanceof TypeError, (thrown as Error).message);
  return answers.map((answer) => (typeof answer === "function" ? String(answer()) : answer));
}

describe("the browser's side-channel", () => {
  it("answers every call as the package does", () => {
    expect(exercise(lite)).toEqual(exercise(real));
  });
});
