/**
 * Custom page registry: a resource replaces a generated screen by naming a key here in
 * `pages` (resources/<entity>.ts: `pages: { list: "products.board" }`). Each entry is a
 * lazy page taking the same props as the generated ones, so it loads only when opened.
 * Keys sorted.
 *
 * @example
 * "products.board": lazyScreen(() => import("../pages/products/product-board-page")),
 */
import type { ComponentType } from "react";
import { lazyScreen } from "../components/lazy-screen";
import type { ScreenProps } from "./types";

/**
 * A custom page given its resource's definition as it is now, as the generated screens are
 * (with-runtime-def.tsx): an `x-custom` resource's page then shows its custom fields too.
 */
const runtimePage = (load: () => Promise<{ default: ComponentType<ScreenProps> }>) =>
  lazyScreen(async () => {
    const [page, runtime] = await Promise.all([load(), import("./with-runtime-def")]);
    return { default: runtime.withRuntimeDef(page.default) };
  });

export const CUSTOM_PAGES: Readonly<Record<string, ComponentType<ScreenProps>>> = {
  "automations.list": lazyScreen(() => import("../pages/automation/automations-list-page")),
  "automations.show": lazyScreen(() => import("../pages/automation/automation-page")),
  "crm.client": runtimePage(() => import("../pages/crm/client-page")),
  "domains.show": lazyScreen(() => import("../pages/cms/domain-show-page")),
  "forms.show": lazyScreen(() => import("../pages/forms/form-page")),
  "pdfs.library": lazyScreen(() => import("../pages/pdfs/pdf-library-page")),
  "pdfs.viewer": lazyScreen(() => import("../pages/pdfs/pdf-viewer-page")),
  "proposals.show": lazyScreen(() => import("../pages/store/proposals/proposal-page")),
  "sequences.show": lazyScreen(() => import("../pages/crm/sequences/sequence-page")),
};
