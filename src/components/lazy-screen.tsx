/**
 * Lazy screens that give up after the script load timeout (spec §9) and can be tried again.
 * React's `lazy` remembers a failure for good, so a retry makes a fresh `lazy` for each screen
 * that failed; the error boundary's Retry calls {@link retryFailedScreens}.
 */
import { type ComponentType, type LazyExoticComponent, lazy } from "react";
import { withScriptTimeout } from "../lib/chunk-reload";
import { SCRIPT_LOAD_TIMEOUT_MS } from "../lib/constants";

declare global {
  interface Window {
    /** Set by an e2e test to see the timeout without waiting two minutes. */
    __ATELIER_SCRIPT_TIMEOUT_MS?: number;
  }
}

/** The script load timeout, or a test's shorter one. */
export function scriptLoadTimeoutMs(): number {
  const override = typeof window === "undefined" ? undefined : window.__ATELIER_SCRIPT_TIMEOUT_MS;
  return typeof override === "number" && override > 0 ? override : SCRIPT_LOAD_TIMEOUT_MS;
}

/** Screens whose last load failed, each with what starts it afresh. */
const failedScreens = new Set<() => void>();

/** Lets every screen whose code failed to load try again on its next render. */
export function retryFailedScreens(): void {
  const retries = [...failedScreens];
  failedScreens.clear();
  for (const retry of retries) retry();
}

// biome-ignore lint/suspicious/noExplicitAny: the same constraint as React's own `lazy`.
type AnyComponent = ComponentType<any>;

/** A lazy screen: renders once its code is there; `preload` fetches the code beforehand. */
export type LazyScreen<T extends AnyComponent> = T & { preload: () => Promise<void> };

/**
 * `React.lazy` with the script load timeout, retryable after a failure.
 *
 * Once its code has loaded, the screen renders the component itself, not through `lazy`: a
 * lazy component suspends on its first render even when its code is already there, and React
 * holds back what a suspended boundary reveals for up to 300 ms after its fallback showed, a
 * third of a second on every first visit to a screen (issue 28). So a screen whose code was
 * preloaded ({@link LazyScreen.preload}) shows in the same render as the layout around it.
 *
 * @example
 * const HomePage = lazyScreen(() => import("../pages/home/home-page"));
 */
export function lazyScreen<T extends AnyComponent>(load: () => Promise<{ default: T }>): LazyScreen<T> {
  let current: LazyExoticComponent<T>;
  let loaded: T | undefined;
  let loading: Promise<{ default: T }> | undefined;
  /** One load at a time; a failure is forgotten, so the next render or preload tries again. */
  const loadOnce = () => {
    loading ??= withScriptTimeout(load, scriptLoadTimeoutMs()).then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        loading = undefined;
        failedScreens.add(start);
        throw error;
      },
    );
    return loading;
  };
  const start = () => {
    current = lazy(loadOnce);
  };
  start();
  // A stable component that renders whichever lazy is current, so routes keep their element.
  const Screen = (props: Record<string, unknown>) => {
    const Current = (loaded ?? current) as unknown as ComponentType<Record<string, unknown>>;
    return <Current {...props} />;
  };
  Screen.preload = () =>
    loadOnce().then(
      () => undefined,
      () => undefined,
    );
  return Screen as unknown as LazyScreen<T>;
}
