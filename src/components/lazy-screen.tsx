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

/**
 * `React.lazy` with the script load timeout, retryable after a failure.
 *
 * @example
 * const HomePage = lazyScreen(() => import("../pages/home/home-page"));
 */
export function lazyScreen<T extends AnyComponent>(load: () => Promise<{ default: T }>): T {
  let current: LazyExoticComponent<T>;
  const start = () => {
    current = lazy(() =>
      withScriptTimeout(load, scriptLoadTimeoutMs()).catch((error: unknown) => {
        failedScreens.add(start);
        throw error;
      }),
    );
  };
  start();
  // A stable component that renders whichever lazy is current, so routes keep their element.
  const Screen = (props: Record<string, unknown>) => {
    const Current = current as unknown as ComponentType<Record<string, unknown>>;
    return <Current {...props} />;
  };
  return Screen as unknown as T;
}
