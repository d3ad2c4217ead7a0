import axios, { type AxiosAdapter, type InternalAxiosRequestConfig } from "axios";
import { describe, expect, it } from "vitest";
import { createDataProvider, toHttpError, toListParams, toSortParam } from "./data-provider";

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
    expect(result).toEqual({ data: [{ id: "1" }], total: 31 });
    expect(requests[0].url).toBe("/api/users");
    expect(requests[0].params).toEqual({ page: 3, pageSize: 10 });
  });

  it("updates with PATCH and deletes many one by one", async () => {
    const { client, requests } = clientAnswering(() => ({ status: 200, data: { id: "u1" } }));
    const provider = createDataProvider(client, "/api");
    await provider.update({ resource: "users", id: "u1", variables: { active: false } });
    await provider.deleteMany?.({ resource: "users", ids: ["a", "b"] });
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "patch /api/users/u1",
      "delete /api/users/a",
      "delete /api/users/b",
    ]);
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

describe("toHttpError", () => {
  it("falls back to 'Something Went Wrong' without a server message", () => {
    expect(toHttpError(undefined)).toEqual({ message: "Something Went Wrong", statusCode: 0 });
  });
});
