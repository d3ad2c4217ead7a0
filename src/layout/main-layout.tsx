/**
 * Everything behind sign-in, loaded lazily so the sign-in screens stay small: Refine with
 * its providers, the themed layout and the routes. Mounted under the `/*` route.
 */
import "./layout.css";
import { Refine, type ResourceProps } from "@refinedev/core";
import { DocumentTitleHandler, UnsavedChangesNotifier } from "@refinedev/react-router";
import { QueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { createAccessControlProvider } from "../../providers/access-control";
import { createAuthProvider } from "../../providers/auth-provider";
import { createDataProviders } from "../../providers/data-provider";
import { http, startTokenRefresh } from "../../providers/http";
import { createMeLoader } from "../../providers/identity";
import { liveProvider, watchAccount } from "../../providers/live-provider";
import { useMessageNotificationProvider } from "../../providers/notification-provider";
import { SERVICE_BASES } from "../../providers/service-bases";
import { hasSession } from "../../providers/token-store";
import type { ServiceBaseName } from "../../resources/contract";
import { LIST_PATH } from "../app-paths";
import { coalesceQueryNotices } from "../browser/query-notify";
import { Brand } from "../components/brand";
import { preloadIcons, watchIconsBesideWords } from "../components/module-icons";
import { statusOf } from "../lib/errors";
import { preloadListScreen } from "../resources/screens";

/** The list screen's code, fetched by the shell on a list's address (src/app.tsx preloadScreens). */
export { preloadListScreen };

import { APP_NAME } from "../theme";
import { AppBreadcrumb } from "./app-breadcrumb";
import { AppRoutes } from "./app-routes";
import { documentTitle } from "./document-title";
import { MENU_ICONS, RESOURCES } from "./resources";
import { atelierRouterProvider } from "./router-provider";
import { RuntimeResources } from "./runtime-resources";

/** Retries only what may succeed on a second try: no response or a 5xx. */
const retryTransient = (failureCount: number, error: unknown): boolean => {
  const status = statusOf(error);
  return failureCount < 2 && (status === undefined || status === 0 || status >= 500);
};

/**
 * Where each service base's resources live (ARCHITECTURE.md §3: `/api/products`,
 * `/crm/clients`): the API under `/api` of its origin, the others at their base URL.
 * Keys are the `meta.dataProviderName` of the resources.
 */
const RESOURCE_BASE_PATHS: Readonly<Record<ServiceBaseName, string>> = {
  api: "/api",
  cms: SERVICE_BASES.cms,
  crm: SERVICE_BASES.crm,
  dam: SERVICE_BASES.dam,
  forms: SERVICE_BASES.forms,
};

// On a list's address, the list screen's code (its fetch already started by the shell, see
// preloadScreens in src/app.tsx) is in hand before the layout renders the route, so the screen
// renders with the layout instead of suspending first (src/components/lazy-screen.tsx).
if (LIST_PATH.test(window.location.pathname)) void preloadListScreen();
preloadIcons(MENU_ICONS);
// The queries that settle together re-render the screen together (the sider's access checks: one commit, not 26).
coalesceQueryNotices();

function createProviders() {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { refetchOnWindowFocus: false, retry: retryTransient } },
  });
  const me = createMeLoader(queryClient, http);
  return {
    queryClient,
    me,
    dataProvider: createDataProviders(http, RESOURCE_BASE_PATHS),
    authProvider: createAuthProvider(me),
    accessControlProvider: createAccessControlProvider({ loadMe: me.load, resources: RESOURCES }),
  };
}

/** Runs `task` once the page is idle (or after a second where the browser cannot tell); returns a cancel. */
function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === "function") {
    const handle = requestIdleCallback(task, { timeout: 5000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(task, 1000);
  return () => clearTimeout(timer);
}

export default function MainLayout() {
  const [providers] = useState(createProviders);
  // Resources defined at run time (CMS content types), after the fixed ones.
  const [runtime, setRuntime] = useState<readonly ResourceProps[]>([]);
  const resources = useMemo(() => [...RESOURCES, ...runtime], [runtime]);
  // New resources re-render all of Refine (the sider, every screen): none before and none now
  // (no CMS types, or not read yet) is no change, and keeps the list it had.
  const onRuntime = useCallback(
    (next: readonly ResourceProps[]) =>
      setRuntime((known) => (known.length === 0 && next.length === 0 ? known : next)),
    [],
  );

  // Keeps the access token fresh while signed in (spec §4): refresh 1 minute before expiry,
  // re-armed whenever new tokens are saved.
  useEffect(() => startTokenRefresh(), []);

  // A grant or role change made by an admin reaches this page over the socket: the identity
  // is reloaded and Refine re-asks its access questions, so the menu, the home cards and an
  // open screen follow without a reload. A failed reload (offline) keeps the known identity.
  const { me } = providers;
  // Signed out, there is nothing to watch (a refused handshake would end a session that is not there).
  useEffect(
    () => (hasSession() ? watchAccount(() => void me.reload().catch(() => undefined)) : undefined),
    [me],
  );
  // Buttons and menu items are named by their words, not their icons' names (issue 13).
  useEffect(() => watchIconsBesideWords(), []);
  // Most screens are lists: once the first screen is up and the page idle, the list screen's
  // code is fetched, so a click to any list waits for its rows only (issue 28).
  useEffect(() => whenIdle(() => void preloadListScreen()), []);

  return (
    <Refine
      routerProvider={atelierRouterProvider}
      dataProvider={providers.dataProvider}
      authProvider={providers.authProvider}
      accessControlProvider={providers.accessControlProvider}
      notificationProvider={useMessageNotificationProvider}
      resources={resources}
      // Lists, records and selects follow other users' changes (docs/resource-api.md).
      liveProvider={liveProvider}
      options={{
        syncWithLocation: true,
        liveMode: "auto",
        warnWhenUnsavedChanges: true,
        disableTelemetry: true,
        reactQuery: { clientConfig: providers.queryClient },
        title: { text: APP_NAME, icon: <Brand compact size={28} /> },
        breadcrumb: <AppBreadcrumb />,
      }}
    >
      <RuntimeResources onChange={onRuntime} />
      <AppRoutes />
      <UnsavedChangesNotifier />
      <DocumentTitleHandler handler={documentTitle} />
    </Refine>
  );
}
