/**
 * The app shell: theme, toasts and the top-level routes of spec §2. The sign-in screens are
 * small lazy chunks with antd only; everything behind sign-in (Refine, the layout, the
 * screens) is one lazy import, so /manage/login does not download it.
 */
import { App as AntApp, ConfigProvider, message } from "antd";
import { lazy, Suspense } from "react";
import { BrowserRouter, Route, Routes } from "react-router";
import { earlyReads } from "../providers/early-reads";
import { SERVICE_BASES } from "../providers/service-bases";
import { LIST_PATH, PUBLIC_PATHS } from "./app-paths";
import { ErrorBoundary } from "./components/error-boundary";
import { lazyScreen, scriptLoadTimeoutMs } from "./components/lazy-screen";
import { NetworkToasts } from "./components/network-toasts";
import { PageLoader } from "./components/page-loader";
import { useReducedMotion } from "./hooks/use-reduced-motion";
import { withScriptTimeout } from "./lib/chunk-reload";
import { TOAST_AUTO_CLOSE_MS } from "./lib/constants";
import { reducedMotionTheme, theme } from "./theme";

export const APP_BASENAME = "/manage";

// In the shell's chunk (scripts/vite/route-chunks.ts), preloaded below: shown without a fallback first.
const LoginPage = lazyScreen(() => import("./pages/auth/login-page"));
const ForgotPasswordPage = lazy(() => import("./pages/auth/forgot-password-page"));
const ResetPasswordPage = lazy(() => import("./pages/auth/reset-password-page"));
const NotFoundPage = lazy(() => import("./pages/errors/not-found-page"));
const loadMainLayout = () => import("./layout/main-layout");
const MainLayout = lazyScreen(loadMainLayout);

const LOGIN_PATH = /^\/manage\/login\/?$/;

/**
 * With a session (its access token), a screen behind sign-in fetches the layout's code (and,
 * on a list's address, the list's) as the app starts, side by side, rather than each after
 * the one before has rendered: one round of requests instead of three in a row before the
 * first row shows. Its first reads (the identity, and what the screen read last time) start
 * then too, beside the code (providers/early-reads.ts). index.html has asked for the same chunks
 * already, beside the shell's (scripts/vite/signed-in-preload.ts): these imports run them.
 */
export function preloadScreens(
  location: Pick<Location, "pathname" | "search">,
  token: string | undefined,
): Promise<void> {
  const { pathname, search } = location;
  // Its code is at hand before the first render, so the form shows in it (lazyScreen).
  if (LOGIN_PATH.test(pathname)) return LoginPage.preload();
  if (!token || PUBLIC_PATHS.test(pathname)) return Promise.resolve();
  earlyReads.start(pathname + search, token, [`${SERVICE_BASES.api}/api/users/me`]);
  const screens = [MainLayout.preload()];
  // Through the list screen's own lazyScreen (which the layout's chunk holds), so it renders at
  // once in the layout's first render.
  // Given up after the script load timeout, as the screens' own loads are: a chunk that never
  // comes must not keep the first render (and its error with Retry) from happening.
  if (LIST_PATH.test(pathname))
    screens.push(
      withScriptTimeout(
        () => loadMainLayout().then((layout) => layout.preloadListScreen()),
        scriptLoadTimeoutMs(),
      ),
    );
  // A failed load is the first render's to show (the error boundary's Retry).
  return Promise.all(screens).then(
    () => undefined,
    () => undefined,
  );
}

/** Toasts: top-centre (antd message's place), closing after 2000 ms (spec §9). */
const MESSAGE_CONFIG = { top: 16, duration: TOAST_AUTO_CLOSE_MS / 1000, maxCount: 3 };
message.config(MESSAGE_CONFIG);

export function App() {
  const reduced = useReducedMotion();
  return (
    <ConfigProvider theme={reduced ? reducedMotionTheme : theme} wave={{ disabled: reduced }}>
      <AntApp message={MESSAGE_CONFIG}>
        <NetworkToasts />
        <BrowserRouter basename={APP_BASENAME}>
          <ErrorBoundary>
            <Suspense fallback={<PageLoader fullScreen />}>
              <Routes>
                <Route path="/login" element={<LoginPage />} />
                <Route path="/password_reset" element={<ForgotPasswordPage />} />
                <Route path="/resetpassword/:id" element={<ResetPasswordPage />} />
                <Route path="/resetpassword/:length/:id" element={<ResetPasswordPage />} />
                <Route path="/404" element={<NotFoundPage />} />
                <Route path="/*" element={<MainLayout />} />
              </Routes>
            </Suspense>
          </ErrorBoundary>
        </BrowserRouter>
      </AntApp>
    </ConfigProvider>
  );
}
