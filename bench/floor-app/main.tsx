/**
 * The floor of `npm run bench:bundle`: a bare Refine + antd app as its docs make one, with
 * nothing of Atelier's (no code splitting, no theme, no live updates, no access control):
 * a sign-in form (AuthPage), a home screen and the products list (List + useTable + Table) in
 * the themed layout, on the same server, tokens and rows as the admin app. Hash routes, so the server
 * serves it as a plain file (`/manage/floor/index.html#/products`).
 */
import "antd/dist/reset.css";
import {
  AuthPage,
  ErrorComponent,
  List,
  ThemedLayout,
  useNotificationProvider,
  useTable,
} from "@refinedev/antd";
import { Authenticated, type AuthProvider, type DataProvider, Refine } from "@refinedev/core";
import routerProvider, { CatchAllNavigate, NavigateToResource } from "@refinedev/react-router";
import { App as AntApp, ConfigProvider, Table, Typography } from "antd";
import Cookies from "js-cookie";
import { createRoot } from "react-dom/client";
import { HashRouter, Outlet, Route, Routes } from "react-router";

const token = () => Cookies.get("accessToken");

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  const bearer = token();
  const response = await fetch(`/api${path}`, {
    ...init,
    headers: {
      "content-type": "application/json",
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
  });
  if (!response.ok) throw Object.assign(new Error(response.statusText), { statusCode: response.status });
  return (await response.json()) as T;
}

const dataProvider: DataProvider = {
  getApiUrl: () => "/api",
  async getList({ resource, pagination }) {
    const page = pagination?.currentPage ?? 1;
    const pageSize = pagination?.pageSize ?? 10;
    const body = await call<{ data: never[]; total: number }>(
      `/${resource}?page=${page}&pageSize=${pageSize}`,
    );
    return { data: body.data, total: body.total };
  },
  getOne: async ({ resource, id }) => ({ data: await call<never>(`/${resource}/${id}`) }),
  create: async ({ resource, variables }) => ({
    data: await call<never>(`/${resource}`, { method: "POST", body: JSON.stringify(variables) }),
  }),
  update: async ({ resource, id, variables }) => ({
    data: await call<never>(`/${resource}/${id}`, { method: "PATCH", body: JSON.stringify(variables) }),
  }),
  deleteOne: async ({ resource, id }) => ({
    data: await call<never>(`/${resource}/${id}`, { method: "DELETE" }),
  }),
};

const authProvider: AuthProvider = {
  async login({ email, password }) {
    const { accessToken } = await call<{ accessToken: string }>("/auth/signin", {
      method: "POST",
      body: JSON.stringify({ email, password, deviceInfo: { deviceId: "floor", deviceName: "Floor" } }),
    });
    Cookies.set("accessToken", accessToken, { path: "/" });
    return { success: true, redirectTo: "/products" };
  },
  logout: async () => {
    Cookies.remove("accessToken", { path: "/" });
    return { success: true, redirectTo: "/login" };
  },
  check: async () => (token() ? { authenticated: true } : { authenticated: false, redirectTo: "/login" }),
  onError: async () => ({}),
};

function ProductList() {
  const { tableProps } = useTable({ resource: "products", pagination: { pageSize: 25 } });
  return (
    <List>
      <Table {...tableProps} rowKey="id">
        <Table.Column dataIndex="sku_code" title="SKU" />
        <Table.Column dataIndex="name" title="Name" />
        <Table.Column dataIndex="price" title="Price" />
      </Table>
    </List>
  );
}

/** Where a click on the menu's Products link is timed from (a screen without a table). */
function Home() {
  return <Typography.Title level={3}>Home</Typography.Title>;
}

function App() {
  return (
    <HashRouter>
      <ConfigProvider>
        <AntApp>
          <Refine
            routerProvider={routerProvider}
            dataProvider={dataProvider}
            authProvider={authProvider}
            notificationProvider={useNotificationProvider}
            resources={[
              { name: "home", list: "/", meta: { label: "Home" } },
              { name: "products", list: "/products" },
            ]}
            options={{ disableTelemetry: true }}
          >
            <Routes>
              <Route
                element={
                  <Authenticated key="inside" fallback={<CatchAllNavigate to="/login" />}>
                    <ThemedLayout>
                      <Outlet />
                    </ThemedLayout>
                  </Authenticated>
                }
              >
                <Route index element={<Home />} />
                <Route path="/products" element={<ProductList />} />
                <Route path="*" element={<ErrorComponent />} />
              </Route>
              <Route
                element={
                  <Authenticated key="outside" fallback={<Outlet />}>
                    <NavigateToResource resource="products" />
                  </Authenticated>
                }
              >
                <Route path="/login" element={<AuthPage type="login" />} />
              </Route>
            </Routes>
          </Refine>
        </AntApp>
      </ConfigProvider>
    </HashRouter>
  );
}

const root = document.getElementById("root");
if (root) createRoot(root).render(<App />);
