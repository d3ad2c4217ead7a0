/**
 * What antd Table's row selection takes from rc-tree, for this build (the `lighterModules`
 * plugin in vite.config.ts puts this file in place of rc-tree's modules when the selection
 * hook imports them). rc-tree's entity and conduction code serves only tree data selected with
 * `checkStrictly: false` (a parent checking its children); Atelier's lists are flat and keep
 * antd's default `checkStrictly: true`, and that code would bring most of rc-tree to every list
 * screen (about 4 KB of compressed script). `arrAdd` and `arrDel` are copied as they are.
 */
export function arrDel(list, value) {
  if (!list) return [];
  const clone = list.slice();
  const index = clone.indexOf(value);
  if (index >= 0) clone.splice(index, 1);
  return clone;
}

export function arrAdd(list, value) {
  const clone = (list || []).slice();
  if (clone.indexOf(value) === -1) clone.push(value);
  return clone;
}

function leftOut() {
  throw new Error(
    "A table selects tree data with checkStrictly: false, which this build leaves out " +
      "(src/vendor/table-selection-tree.js): keep checkStrictly, or remove the stand-in from vite.config.ts.",
  );
}

export const conductCheck = leftOut;
export const convertDataToEntities = leftOut;
