/**
 * The app shell: theme, toasts and the top-level routes of spec §2. The sign-in screens are
 * small lazy chunks with antd only; everything behind sign-in (Refine, the layout, the
 * screens) is one lazy import, so /manage/login does not download it.
 */
import { App as AntApp, ConfigProvider, message } from "antd";
import { lazy, Suspense } from "react";
import { BrowserRouter, Route, Routes } from "react-router";
import { ErrorBoundary } from "./components/error-boundary";
import { NetworkToasts } from "./components/network-toasts";
import { PageLoader } from "./components/page-loader";
import { TOAST_AUTO_CLOSE_MS } from "./lib/constants";
import { theme } from "./theme";

export const APP_BASENAME = "/manage";

const LoginPage = lazy(() => import("./pages/auth/login-page"));
const ForgotPasswordPage = lazy(() => import("./pages/auth/forgot-password-page"));
const ResetPasswordPage = lazy(() => import("./pages/auth/reset-password-page"));
const NotFoundPage = lazy(() => import("./pages/errors/not-found-page"));
const MainLayout = lazy(() => import("./layout/main-layout"));

/** Toasts: top-centre (antd message's place), closing after 2000 ms (spec §9). */
const MESSAGE_CONFIG = { top: 16, duration: TOAST_AUTO_CLOSE_MS / 1000, maxCount: 3 };
message.config(MESSAGE_CONFIG);

export function App() {
  return (
    <ConfigProvider theme={theme}>
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
