/**
 * The radio that antd Table's row selection draws for `rowSelection.type: "radio"`, left out of
 * the admin app's build (the `lighterModules` plugin in vite.config.ts puts this file in place
 * of antd's Radio when the selection hook imports it). Atelier's lists select rows with
 * checkboxes; the radio and its styles would come to every list screen all the same (about
 * 3 KB of compressed script). A table that does select by radio gets an error saying so, in
 * development and in tests, rather than silently no radio.
 */
export default function Radio() {
  throw new Error(
    'A table selects rows with rowSelection.type "radio", which this build leaves out ' +
      "(src/vendor/table-selection-radio.js): use checkboxes, or remove the stand-in from vite.config.ts.",
  );
}
