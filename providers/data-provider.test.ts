import axios, { type AxiosAdapter, type InternalAxiosRequestConfig } from "axios";
import { describe, expect, it } from "vitest";
import { READ_TIMEOUT_MS } from "../src/lib/load-failure";
import {
  createDataProvider,
  createDataProviders,
  MAX_PAGE_SIZE,
  readTimeoutMs,
  toHttpError,
  toListParams,
  toManyParams,
  toSortParam,
} from "./data-provider";

/** An axios client whose "server" is a function: records each request and answers it. */
function clientAnswering(answer: (config: InternalAxiosRequestConfig) => { status: number; data: unknown }) {
  const requests: InternalAxiosRequestConfig[] = [];
  const adapter: AxiosAdapter = async (config) => {
    requests.push(config);
    const { status, data } = answer(config);
    const response = { data, status, statusText: String(status), headers: {}, config };
    if (status >= 400) throw new axios.AxiosError("failed", "ERR_BAD_REQUEST", config, null, response);
    return response;
  };
  return { client: axios.create({ adapter }), requests };
}

describe("list query parameters", () => {
  it("writes sorters as -field,field", () => {
    expect(
      toSortParam([
        { field: "price", order: "desc" },
        { field: "name", order: "asc" },
      ]),
    ).toBe("-price,name");
    expect(toSortParam([])).toBeUndefined();
  });

  it("sends page, pageSize, sort, q and the other filters as JSON", () => {
    const params = toListParams(
      { currentPage: 2, pageSize: 10 },
      [{ field: "email", order: "asc" }],
      [
        { field: "q", operator: "contains", value: "ada" },
        { field: "role", operator: "eq", value: 2 },
        { field: "active", operator: "eq", value: undefined },
      ],
    );
    expect(params).toEqual({
      page: 2,
      pageSize: 10,
      sort: "email",
      q: "ada",
      filters: JSON.stringify([{ field: "role", operator: "eq", value: 2 }]),
    });
  });

  it("sends no paging when pagination is off", () => {
    expect(toListParams({ mode: "off" }, undefined, undefined)).toEqual({});
  });
});

describe("createDataProvider", () => {
  it("lists from {base}/{resource} and reads { data, total }", async () => {
    const { client, requests } = clientAnswering(() => ({
      status: 200,
      data: { data: [{ id: "1" }], total: 31 },
    }));
    const provider = createDataProvider(client, "/api");
    const result = await provider.getList({
      resource: "users",
      pagination: { currentPage: 3, pageSize: 10 },
    });
    expect(result).toEqual({ data: [{ id: "1" }], total: 31, totalExact: true });
    expect(requests[0].url).toBe("/api/users");
    expect(requests[0].params).toEqual({ page: 3, pageSize: 10 });
  });

  it("updates with PATCH and deletes many in one POST /<name>/delete", async () => {
    const { client, requests } = clientAnswering(() => ({ status: 200, data: { id: "u1", deleted: 2 } }));
    const provider = createDataProvider(client, "/api");
    await provider.update({ resource: "products", id: "u1", variables: { price: 3 } });
    const result = await provider.deleteMany?.({ resource: "products", ids: ["a", "b"] });
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "patch /api/products/u1",
      "post /api/products/delete",
    ]);
    expect(JSON.parse(requests[1].data)).toEqual({ ids: ["a", "b"] });
    expect(result?.data).toEqual([{ id: "a" }, { id: "b" }]);
  });

  it("gets many as one list filtered by id in [...]", async () => {
    const { client, requests } = clientAnswering(() => ({
      status: 200,
      data: { data: [{ id: "a" }, { id: "b" }], total: 2 },
    }));
    const provider = createDataProvider(client, "/api");
    const result = await provider.getMany?.({ resource: "categories", ids: ["a", "b", "a"] });
    expect(result?.data).toEqual([{ id: "a" }, { id: "b" }]);
    expect(requests).toHaveLength(1);
    expect(requests[0].url).toBe("/api/categories");
    expect(requests[0].params).toEqual({
      page: 1,
      pageSize: 2,
      filters: JSON.stringify([{ field: "id", operator: "in", value: ["a", "b"] }]),
    });
  });

  it("creates with POST and reads one with GET /<name>/<id>", async () => {
    const { client, requests } = clientAnswering((config) => ({
      status: config.method === "post" ? 201 : 200,
      data: { id: "p1" },
    }));
    const provider = createDataProvider(client, "/api");
    await provider.create({ resource: "sub-categories", variables: { name: "Shirts" } });
    await provider.getOne({ resource: "sub-categories", id: "p1" });
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "post /api/sub-categories",
      "get /api/sub-categories/p1",
    ]);
    expect(JSON.parse(requests[0].data)).toEqual({ name: "Shirts" });
  });

  it("sends list parameters with custom calls", async () => {
    const { client, requests } = clientAnswering(() => ({ status: 200, data: "csv" }));
    const provider = createDataProvider(client, "/api");
    await provider.custom?.({
      url: "/api/products/export.csv",
      method: "get",
      sorters: [{ field: "price", order: "desc" }],
      filters: [
        { field: "q", operator: "contains", value: "shirt" },
        { field: "status", operator: "eq", value: "active" },
      ],
    });
    expect(requests[0].params).toEqual({
      sort: "-price",
      q: "shirt",
      filters: JSON.stringify([{ field: "status", operator: "eq", value: "active" }]),
    });
  });

  it("encodes ids, so a device id with a slash stays one path segment", async () => {
    const { client, requests } = clientAnswering(() => ({ status: 204, data: "" }));
    const provider = createDataProvider(client, "/api");
    const result = await provider.deleteOne({ resource: "users/me/devices", id: "12345/abc" });
    expect(requests[0].url).toBe("/api/users/me/devices/12345%2Fabc");
    expect(result.data).toEqual({ id: "12345/abc" });
  });

  it("turns a 400 with details into an HttpError with field errors", async () => {
    const body = {
      statusCode: 400,
      error: "Bad Request",
      message: "Invalid input",
      details: [{ field: "email", message: "must be an email" }],
    };
    const { client } = clientAnswering(() => ({ status: 400, data: body }));
    const provider = createDataProvider(client, "/api");
    await expect(provider.create({ resource: "users", variables: {} })).rejects.toEqual({
      message: "Invalid input",
      statusCode: 400,
      errors: { email: "must be an email" },
    });
  });
});

describe("toManyParams", () => {
  it("splits ids into pages of at most MAX_PAGE_SIZE, without duplicates", () => {
    const ids = Array.from({ length: MAX_PAGE_SIZE + 5 }, (_, i) => `id${i}`);
    const pages = toManyParams([...ids, "id0"]);
    expect(pages.map((p) => p.pageSize)).toEqual([MAX_PAGE_SIZE, 5]);
    expect(JSON.parse(String(pages[1].filters))).toEqual([
      { field: "id", operator: "in", value: ids.slice(MAX_PAGE_SIZE) },
    ]);
  });

  it("asks nothing for no ids", () => {
    expect(toManyParams([])).toEqual([]);
  });
});

describe("createDataProviders", () => {
  it("keys one provider per base, the first also as default", async () => {
    const { client, requests } = clientAnswering(() => ({ status: 200, data: { data: [], total: 0 } }));
    const providers = createDataProviders(client, { api: "/api", crm: "/crm" });
    expect(Object.keys(providers)).toEqual(["default", "api", "crm"]);
    await providers.crm.getList({ resource: "clients" });
    await providers.default.getList({ resource: "products" });
    expect(requests.map((r) => r.url)).toEqual(["/crm/clients", "/api/products"]);
  });
});

describe("toHttpError", () => {
  it("falls back to 'Something Went Wrong' without a server message", () => {
    expect(toHttpError(undefined)).toEqual({ message: "Something Went Wrong", statusCode: 0 });
  });

  it("makes a read the client gave up on a 408 (not retried), and no answer a 0", () => {
    const timedOut = { isAxiosError: true, code: "ECONNABORTED", message: "timeout of 1500ms exceeded" };
    expect(toHttpError(timedOut).statusCode).toBe(408);
    expect(toHttpError({ isAxiosError: true, code: "ERR_NETWORK" }).statusCode).toBe(0);
    expect(
      toHttpError({ isAxiosError: true, code: "ECONNABORTED", response: { status: 502 } }).statusCode,
    ).toBe(502);
  });
});

describe("readTimeoutMs", () => {
  it("is READ_TIMEOUT_MS unless a test set a shorter one on the window", () => {
    const global = globalThis as { __ATELIER_READ_TIMEOUT_MS?: unknown };
    expect(readTimeoutMs()).toBe(READ_TIMEOUT_MS);
    global.__ATELIER_READ_TIMEOUT_MS = 1500;
    try {
      expect(readTimeoutMs()).toBe(1500);
    } finally {
      delete global.__ATELIER_READ_TIMEOUT_MS;
    }
  });
});
