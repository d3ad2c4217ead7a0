/**
 * Which component shows a resource's screen: its custom page when `pages` names one, else
 * the generated page. Every page is a lazy chunk, so the tables, forms and rjsf load only
 * when a resource screen is opened (and give up after the script load timeout, with Retry).
 */
import type { ComponentType } from "react";
import type { ResourceDefinition, ScreenName } from "../../resources/contract";
import { lazyScreen } from "../components/lazy-screen";
import { CUSTOM_PAGES } from "./custom-pages";
import type { ScreenProps } from "./types";

type Screen = ComponentType<ScreenProps>;

const GENERATED = {
  create: lazyScreen(() => import("./form/create-page")),
  edit: lazyScreen(() => import("./form/edit-page")),
  list: lazyScreen(() => import("./list/list-page")),
  show: lazyScreen(() => import("./show/show-page")),
} satisfies Record<ScreenName, Screen>;

/**
 * Fetches the generated list screen's code, so the first list opened renders at once
 * (lazyScreen): most screens are lists.
 */
export const preloadListScreen = (): Promise<void> => GENERATED.list.preload();

/** The page of `screen` for `def`; an unknown custom key is a configuration error, so it throws. */
export function screenOf(def: ResourceDefinition, screen: ScreenName): Screen {
  const key = def.pages?.[screen];
  if (key === undefined) return GENERATED[screen];
  const page = CUSTOM_PAGES[key];
  if (!page) throw new Error(`Resource "${def.name}" names the unknown ${screen} page "${key}"`);
  return page;
}
