/**
 * antd Table's per-column filter dropdown, left out of the admin app's build (the
 * `lighterModules` plugin in vite.config.ts puts this file in its place). Atelier's lists
 * filter in their own bar (src/resources/list/list-filters.tsx) and no column declares
 * `filters` or `filterDropdown`; the dropdown would bring antd's Tree and Radio to every list
 * screen all the same: about 18 KB of compressed script. A column that does declare them gets
 * an error saying so, in development and in tests, rather than silently no dropdown.
 */
export function flattenKeys(filters) {
  let keys = [];
  for (const { value, children } of filters || []) {
    keys.push(value);
    if (children) keys = keys.concat(flattenKeys(children));
  }
  return keys;
}

export default function FilterDropdown({ column }) {
  const name =
    typeof column?.title === "string" ? column.title : String(column?.key ?? column?.dataIndex ?? "");
  throw new Error(
    `The list column "${name}" declares antd filters, which this build leaves out: filter in the list's filter bar ` +
      "(src/resources/list/list-filters.tsx), or remove the table-filter-dropdown stand-in from vite.config.ts.",
  );
}
