/**
 * Routes behind sign-in. Every module route goes through ModuleGuard (403 when not granted);
 * each screen is its own lazy chunk, given up on after the script load timeout (spec §9). Entity resources are routed under their module
 * (`/products/categories/...`) or at the root, from resources/index.ts.
 */
import { ThemedLayout } from "@refinedev/antd";
import { Authenticated } from "@refinedev/core";
import { CatchAllNavigate } from "@refinedev/react-router";
import { type ReactNode, Suspense } from "react";
import { Navigate, Outlet, Route, Routes, useLocation } from "react-router";
import { MODULES } from "../../resources/modules";
import { ErrorBoundary } from "../components/error-boundary";
import { lazyScreen } from "../components/lazy-screen";
import { PageLoader } from "../components/page-loader";
import { resourceRoute } from "../resources/resource-routes";
import { moduleGroupId } from "../resources/routes";
import { AppHeader } from "./app-header";
import { AppSider } from "./app-sider";
import { ModuleGuard } from "./module-guard";
import { BUILT_MODULES, resourcesOfModule, TOP_LEVEL_RESOURCES } from "./resources";

const HomePage = lazyScreen(() => import("../pages/home/home-page"));
const ModuleLandingPage = lazyScreen(() => import("../pages/modules/module-landing-page"));
const ModuleResourcesPage = lazyScreen(() => import("../pages/modules/module-resources-page"));
const CrmPage = lazyScreen(() => import("../pages/crm/crm-page"));
const UserListPage = lazyScreen(() => import("../pages/users/user-list-page"));
const UserCreatePage = lazyScreen(() => import("../pages/users/user-create-page"));
const UserEditPage = lazyScreen(() => import("../pages/users/user-edit-page"));
const UserShowPage = lazyScreen(() => import("../pages/users/user-show-page"));
const OutboxPage = lazyScreen(() => import("../pages/outbox/outbox-page"));
const SecurityEventsPage = lazyScreen(() => import("../pages/security-events/security-events-page"));
const AccountPage = lazyScreen(() => import("../pages/account/account-page"));
const MyDevicesPage = lazyScreen(() => import("../pages/account/my-devices-page"));
const DamPage = lazyScreen(() => import("../pages/dam/dam-page"));
const AnalyticsPage = lazyScreen(() => import("../pages/analytics/analytics-page"));
const ContentTypesPage = lazyScreen(() => import("../pages/cms/content-types-page"));
const EntryScreens = lazyScreen(() => import("../pages/cms/entry-screens"));
const NavigationsPage = lazyScreen(() => import("../pages/cms/navigations-page"));
const WebhooksPage = lazyScreen(() => import("../pages/webhooks/webhooks-page"));
const MediaPage = lazyScreen(() => import("../pages/cms/media-page"));
const CalendarPage = lazyScreen(() => import("../pages/crm/calendar/calendar-page"));
const CustomFieldsPage = lazyScreen(() => import("../pages/crm/custom-fields-page"));
const SmsOutboxPage = lazyScreen(() => import("../pages/crm/sms-outbox-page"));
const StorePage = lazyScreen(() => import("../pages/store/store-page"));

const guarded = (resource: string, page: ReactNode) => <ModuleGuard resource={resource}>{page}</ModuleGuard>;

/** A module's own page at `/<module>`, instead of the cards of its resources. */
const MODULE_PAGES: Readonly<Record<string, ReactNode>> = { crm: <CrmPage />, store: <StorePage /> };

/** Screens of a module besides its entity resources' (routed under the module's path). */
const MODULE_SCREENS: Readonly<Record<string, ReactNode>> = {
  cms: (
    <>
      <Route path="content-types" element={guarded("cms-content-types", <ContentTypesPage />)} />
      <Route path="navigations" element={guarded("cms-navigations", <NavigationsPage />)} />
      <Route path="webhooks" element={guarded("cms-webhooks", <WebhooksPage module="cms" />)} />
      <Route path="media" element={guarded("cms-media", <MediaPage />)} />
      <Route path="entries/:type/*" element={guarded(moduleGroupId("cms"), <EntryScreens />)} />
    </>
  ),
  crm: (
    <>
      <Route path="calendar" element={guarded("crm-calendar", <CalendarPage />)} />
      <Route path="custom-fields" element={guarded("crm-custom-fields", <CustomFieldsPage />)} />
      <Route path="sms-outbox" element={guarded("crm-sms-outbox", <SmsOutboxPage />)} />
    </>
  ),
  forms: <Route path="webhooks" element={guarded("forms-webhooks", <WebhooksPage module="forms" />)} />,
  // The connected stores, also the module's own page at /store (its proposals are a resource).
  store: <Route path="connections" element={guarded("store-connections", <StorePage />)} />,
};

function Shell() {
  const { pathname } = useLocation();
  return (
    <Authenticated key="main" fallback={<CatchAllNavigate to="/login" />} loading={<PageLoader fullScreen />}>
      <ThemedLayout Sider={AppSider} Header={AppHeader}>
        {/* Keyed by path: a screen that failed does not keep the next one from showing. */}
        <ErrorBoundary key={pathname}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </ThemedLayout>
    </Authenticated>
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Shell />}>
        <Route index element={<HomePage />} />
        <Route path="users">
          <Route index element={guarded("users", <UserListPage />)} />
          <Route path="create" element={guarded("users", <UserCreatePage />)} />
          <Route path="edit/:id" element={guarded("users", <UserEditPage />)} />
          <Route path="show/:id" element={guarded("users", <UserShowPage />)} />
          <Route path="security-log" element={guarded("security-events", <SecurityEventsPage />)} />
        </Route>
        <Route path="outbox" element={guarded("outbox", <OutboxPage />)} />
        <Route path="dam" element={guarded("dam", <DamPage />)} />
        <Route path="analytics" element={guarded("analytics", <AnalyticsPage />)} />
        <Route path="account" element={<AccountPage />} />
        <Route path="account/devices" element={<MyDevicesPage />} />
        {MODULES.map((m) => ({ module: m, resources: resourcesOfModule(m.key) }))
          .filter(({ resources }) => resources.length > 0)
          .map(({ module: m, resources }) => (
            <Route key={m.key} path={m.key}>
              <Route
                index
                element={guarded(
                  moduleGroupId(m.key),
                  MODULE_PAGES[m.key] ?? <ModuleResourcesPage module={m} />,
                )}
              />
              {resources.map((def) => resourceRoute(def, guarded))}
              {MODULE_SCREENS[m.key]}
              <Route path="*" element={<Navigate to="/404" replace />} />
            </Route>
          ))}
        {TOP_LEVEL_RESOURCES.map((def) => resourceRoute(def, guarded))}
        {MODULES.filter((m) => !BUILT_MODULES.has(m.key)).map((m) => (
          <Route key={m.key} path={`${m.key}/*`} element={guarded(m.key, <ModuleLandingPage module={m} />)} />
        ))}
        <Route path="*" element={<Navigate to="/404" replace />} />
      </Route>
    </Routes>
  );
}
