/**
 * Icons by name: definitions (`resources/*.ts`, `resources/*.module.ts`) name antd icons as
 * strings. At build time this plugin warns about a name that is no antd icon (the app would
 * show AppstoreOutlined in its place) and gives `src/components/icon-loaders.ts` only the
 * icons the definitions name, in one lazy chunk, instead of a chunk for each antd icon.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { normalizePath, type Plugin } from "vite";
import { definitionKindOf } from "../../resources/discovery/collect";

/** The icon a definition names, and where. */
export interface IconUse {
  file: string;
  name: string;
}

/** An icon module's file name (the folder also holds `index.js`). */
const ICON_FILE = /^([A-Z]\w*(?:Outlined|Filled|TwoTone))\.js$/;

/** Every antd icon name (`ShoppingOutlined`): the modules of `@ant-design/icons/es/icons`. */
export function antdIconNames(root: string): Set<string> {
  const require = createRequire(path.join(root, "package.json"));
  const dir = path.join(path.dirname(require.resolve("@ant-design/icons/package.json")), "es", "icons");
  return new Set(
    readdirSync(dir)
      .map((f) => ICON_FILE.exec(f)?.[1])
      .filter((name) => name !== undefined),
  );
}

/** The icon names a definition's source writes: `icon: "ShoppingOutlined"`. */
export function iconNamesIn(source: string): string[] {
  return [...source.matchAll(/\bicon\s*:\s*(["'`])([^"'`]*)\1/g)].map((m) => m[2]);
}

/** The icons named by the definition files of `root/resources`. */
export function definitionIcons(root: string): IconUse[] {
  const dir = path.join(root, "resources");
  return readdirSync(dir)
    .filter((name) => definitionKindOf(name) !== null)
    .sort()
    .flatMap((name) =>
      iconNamesIn(readFileSync(path.join(dir, name), "utf8")).map((icon) => ({
        file: `resources/${name}`,
        name: icon,
      })),
    );
}

/** Edit distance between two strings (insert, delete, replace: 1 each). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length];
}

/** The known name nearest to `name` (ignoring case), when it is close enough to be a typo. */
export function closestIconName(name: string, known: Iterable<string>): string | undefined {
  let best: { name: string; score: number } | undefined;
  for (const candidate of known) {
    const score = distance(name.toLowerCase(), candidate.toLowerCase());
    if (!best || score < best.score) best = { name: candidate, score };
  }
  return best && best.score <= Math.max(2, Math.floor(name.length / 4)) ? best.name : undefined;
}

/** One warning for each use of a name that is no antd icon. */
export function unknownIconWarnings(uses: readonly IconUse[], known: ReadonlySet<string>): string[] {
  return uses
    .filter((use) => !known.has(use.name))
    .map((use) => {
      const near = closestIconName(use.name, known);
      return (
        `${use.file}: icon "${use.name}" is not an antd icon, so the app shows AppstoreOutlined instead.` +
        `${near ? ` Did you mean "${near}"?` : ""} Names: https://ant.design/components/icon`
      );
    });
}

/** The chunk of the icons the definitions name (a virtual module of this plugin). */
export const DEFINITION_ICONS_ID = "virtual:atelier-definition-icons";

/**
 * The build's `src/components/icon-loaders.ts`: each of `names` loads from one shared chunk.
 * One chunk, not one per icon: the menu shows them all at once, so one request beats a dozen
 * tiny ones, and no icon pops in after its neighbours.
 */
export function iconLoadersSource(names: Iterable<string>): string {
  const entries = [...new Set(names)]
    .sort()
    .map((name) => `  ${JSON.stringify(name)}: () => icons().then((m) => ({ default: m.${name} })),`);
  return [
    "// Written by the atelier-antd-icons plugin (scripts/vite/antd-icons.ts): the icons the definitions name.",
    `const icons = () => import(${JSON.stringify(DEFINITION_ICONS_ID)});`,
    "export const ICON_LOADERS = {",
    ...entries,
    "};",
    "",
  ].join("\n");
}

/** The shared chunk's module: re-exports each of `names` from its antd icon module. */
export function definitionIconsSource(names: Iterable<string>): string {
  const lines = [...new Set(names)]
    .sort()
    .map((name) => `export { default as ${name} } from "@ant-design/icons/es/icons/${name}.js";`);
  return `${lines.join("\n")}\n`;
}

export function antdIconsByName(): Plugin {
  let root = "";
  let building = false;
  let used: string[] = [];
  let loadersFile = "";
  /** The icon modules of `used`, by id: kept in the one chunk even where other code imports one too. */
  let usedModules = new Set<string>();
  return {
    name: "atelier-antd-icons",
    // Without this group, an icon that a screen also imports gets a chunk of its own, and the
    // menu fetches it beside the shared one: five small files instead of one on a first load.
    config: () => ({
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: "definition-icons",
                  test: (id: string) =>
                    id === `\0${DEFINITION_ICONS_ID}` || usedModules.has(normalizePath(id)),
                },
              ],
            },
          },
        },
      },
    }),
    configResolved(config) {
      root = config.root;
      building = config.command === "build";
      loadersFile = normalizePath(path.join(root, "src", "components", "icon-loaders.ts"));
    },
    buildStart() {
      const known = antdIconNames(root);
      const uses = definitionIcons(root);
      for (const warning of unknownIconWarnings(uses, known)) this.warn(warning);
      for (const file of new Set(uses.map((use) => use.file))) this.addWatchFile(path.join(root, file));
      used = uses.map((use) => use.name).filter((name) => known.has(name));
      const require = createRequire(path.join(root, "package.json"));
      const iconsDir = path.join(
        path.dirname(require.resolve("@ant-design/icons/package.json")),
        "es",
        "icons",
      );
      usedModules = new Set(used.map((name) => normalizePath(path.join(iconsDir, `${name}.js`))));
    },
    resolveId(source) {
      return source === DEFINITION_ICONS_ID ? `\0${DEFINITION_ICONS_ID}` : null;
    },
    load(id) {
      if (id === `\0${DEFINITION_ICONS_ID}`) return definitionIconsSource(used);
      // The dev server keeps the file's own loaders (every icon): nothing there goes stale.
      if (!building || id !== loadersFile) return null;
      return iconLoadersSource(used);
    },
  };
}
