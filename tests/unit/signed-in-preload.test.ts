/** The build's signed-in preload: the inline script index.html runs as the page is parsed. */
import { describe, expect, it } from "vitest";
import { ACCESS_TOKEN_COOKIE } from "../../providers/token-store";
import { preloadScript, type SignedInPreloadOptions } from "../../scripts/vite/signed-in-preload";
import { LIST_PATH, PUBLIC_PATHS } from "../../src/app-paths";

const OPTIONS: SignedInPreloadOptions = {
  sessionCookie: ACCESS_TOKEN_COOKIE,
  publicPaths: PUBLIC_PATHS,
  layers: [
    { module: "src/layout/main-layout.tsx" },
    { module: "src/resources/list/list-page.tsx", path: LIST_PATH },
  ],
};
const LINKS: [string | null, string, string][] = [
  [null, "/manage/assets/app-1.js", "script"],
  [null, "/manage/assets/app-1.css", "style"],
  [LIST_PATH.source, "/manage/assets/list-1.js", "script"],
];

/** Runs the script against a page at `pathname` with these cookies; returns the links it added. */
function run(pathname: string, cookie: string) {
  const added: Record<string, string>[] = [];
  const document = {
    cookie,
    createElement: () => ({}) as Record<string, string>,
    head: { appendChild: (link: Record<string, string>) => added.push({ ...link }) },
  };
  new Function("document", "location", preloadScript(OPTIONS, LINKS))(document, { pathname });
  return added;
}

describe("signed-in preload script", () => {
  it("on a list's address with a session, preloads the layout's and the list's files", () => {
    expect(run("/manage/products/products", `deviceId=x; ${ACCESS_TOKEN_COOKIE}=abc.def`)).toEqual([
      { rel: "modulepreload", crossOrigin: "", href: "/manage/assets/app-1.js" },
      { rel: "preload", as: "style", href: "/manage/assets/app-1.css" },
      { rel: "modulepreload", crossOrigin: "", href: "/manage/assets/list-1.js" },
    ]);
  });

  it("elsewhere behind sign-in, only the layout's", () => {
    expect(run("/manage/", `${ACCESS_TOKEN_COOKIE}=abc`).map((l) => l.href)).toEqual([
      "/manage/assets/app-1.js",
      "/manage/assets/app-1.css",
    ]);
  });

  it("adds nothing without a session, or on a screen before sign-in", () => {
    expect(run("/manage/products/products", "")).toEqual([]);
    expect(run("/manage/products/products", `x${ACCESS_TOKEN_COOKIE}=abc; ${ACCESS_TOKEN_COOKIE}=`)).toEqual(
      [],
    );
    expect(run("/manage/login", `${ACCESS_TOKEN_COOKIE}=abc`)).toEqual([]);
    expect(run("/manage/resetpassword/abc", `${ACCESS_TOKEN_COOKIE}=abc`)).toEqual([]);
  });
});
