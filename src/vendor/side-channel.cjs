/**
 * `side-channel` for the browser bundle (vite.config.ts points the package here). `qs`, which
 * Refine uses to read and write the address's query, keeps the objects it has seen while
 * stringifying in a side channel to catch cycles. The package does that with a WeakMap too, but
 * formats its one error message with `object-inspect` and finds the WeakMap through
 * `get-intrinsic`: about 10 KB of compressed script on every screen behind sign-in. Same API,
 * same behaviour, without them. CommonJS, like the package: `qs` `require`s it.
 */
"use strict";

const isObject = (key) => (typeof key === "object" && key !== null) || typeof key === "function";

module.exports = function getSideChannel() {
  const objects = new WeakMap();
  const others = new Map();
  const store = (key) => (isObject(key) ? objects : others);
  const channel = {
    assert(key) {
      if (!channel.has(key)) {
        const description = isObject(key) ? "the given object key" : String(key);
        throw new TypeError(`Side channel does not contain ${description}`);
      }
    },
    delete: (key) => store(key).delete(key),
    get: (key) => store(key).get(key),
    has: (key) => store(key).has(key),
    set: (key, value) => {
      store(key).set(key, value);
    },
  };
  return channel;
};
