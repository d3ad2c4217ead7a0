/**
 * The Refine data provider over one service base. One factory, several instances keyed by
 * name in `<Refine dataProvider={{ default: ..., crm: ... }}>` (a resource picks its base
 * with `meta.dataProviderName`).
 *
 * Wire contract (ARCHITECTURE.md §3, docs/resource-api.md): `page` (1-based), `pageSize`,
 * `sort` as `-field,field`, `filters` as JSON of Refine's CrudFilters, `q` for full-text
 * search; lists answer `{ data, total }`; `getMany` is a list filtered by `id in [...]`;
 * `deleteMany` is one `POST /<name>/delete { ids }`; `create` sends an Idempotency-Key. Failures become Refine `HttpError`s whose `errors` carry the server's
 * per-field messages, so `useForm` shows them on the fields.
 */
import type {
  BaseKey,
  BaseRecord,
  CrudFilter,
  CrudSort,
  DataProvider,
  HttpError,
  Pagination,
} from "@refinedev/core";
import type { AxiosInstance } from "axios";
import type { ListResponse } from "../schemas/auth";
import { getErrorMessage, getFieldErrors } from "../src/lib/errors";
import { READ_TIMEOUT_MS } from "../src/lib/load-failure";

/** The filter field that is sent as the `q` (full-text search) parameter instead of a filter. */
export const SEARCH_FIELD = "q";

type QueryParams = Record<string, string | number>;

/** `[{ field: "price", order: "desc" }, { field: "name", order: "asc" }]` → `-price,name`. */
export function toSortParam(sorters: readonly CrudSort[] | undefined): string | undefined {
  if (!sorters?.length) return undefined;
  return sorters.map((s) => (s.order === "desc" ? `-${s.field}` : s.field)).join(",");
}

const isSearchFilter = (filter: CrudFilter): boolean => "field" in filter && filter.field === SEARCH_FIELD;

const hasValue = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== "" && !(Array.isArray(value) && value.length === 0);

/**
 * Query parameters of a list call. A filter on the field `q` becomes the `q` parameter;
 * empty filters are dropped; pagination is sent only in server mode.
 *
 * @example
 * toListParams({ currentPage: 2, pageSize: 10 }, [{ field: "email", order: "asc" }], [
 *   { field: "q", operator: "contains", value: "ada" },
 *   { field: "role", operator: "eq", value: 2 },
 * ]);
 * // { page: 2, pageSize: 10, sort: "email", q: "ada", filters: '[{"field":"role","operator":"eq","value":2}]' }
 */
export function toListParams(
  pagination: Pagination | undefined,
  sorters: readonly CrudSort[] | undefined,
  filters: readonly CrudFilter[] | undefined,
): QueryParams {
  const params: QueryParams = {};
  if ((pagination?.mode ?? "server") === "server") {
    params.page = pagination?.currentPage ?? 1;
    params.pageSize = pagination?.pageSize ?? 10;
  }
  const sort = toSortParam(sorters);
  if (sort) params.sort = sort;
  const search = filters?.find(isSearchFilter);
  if (search && hasValue(search.value)) params[SEARCH_FIELD] = String(search.value);
  const rest = (filters ?? []).filter((f) => !isSearchFilter(f) && hasValue(f.value));
  if (rest.length) params.filters = JSON.stringify(rest);
  return params;
}

/** The most records one list page may hold (the API's `pageSize` maximum). */
export const MAX_PAGE_SIZE = 200;

/**
 * Query parameters that fetch records by id: an `id in [...]` filter, one page per
 * {@link MAX_PAGE_SIZE} ids, duplicates dropped.
 *
 * @example
 * toManyParams(["a", "b", "a"]);
 * // [{ page: 1, pageSize: 2, filters: '[{"field":"id","operator":"in","value":["a","b"]}]' }]
 */
export function toManyParams(ids: readonly BaseKey[]): QueryParams[] {
  const unique = [...new Set(ids.map(String))];
  const pages: QueryParams[] = [];
  for (let start = 0; start < unique.length; start += MAX_PAGE_SIZE) {
    const chunk = unique.slice(start, start + MAX_PAGE_SIZE);
    pages.push(
      toListParams({ currentPage: 1, pageSize: chunk.length }, undefined, [
        { field: "id", operator: "in", value: chunk },
      ]),
    );
  }
  return pages;
}

/** axios's codes for a request given up on after its `timeout`. */
const TIMED_OUT = new Set(["ECONNABORTED", "ETIMEDOUT"]);

/**
 * How long a read waits for its answer: {@link READ_TIMEOUT_MS}, or what an e2e test put in
 * `window.__ATELIER_READ_TIMEOUT_MS`, so a hung request shows its error without a 30 s wait.
 */
export function readTimeoutMs(): number {
  const override = (globalThis as { __ATELIER_READ_TIMEOUT_MS?: unknown }).__ATELIER_READ_TIMEOUT_MS;
  return typeof override === "number" && override > 0 ? override : READ_TIMEOUT_MS;
}

/**
 * Any failure → Refine's HttpError, with the server's message and per-field errors. A read
 * the client gave up on is a 408, so it is not retried on top of a long wait (only no
 * answer and 5xx are) and the screen can say it timed out.
 */
export function toHttpError(error: unknown): HttpError {
  const failure = error as { response?: { status?: number }; code?: unknown } | null;
  const status = failure?.response?.status;
  const timedOut = status === undefined && typeof failure?.code === "string" && TIMED_OUT.has(failure.code);
  const fields = getFieldErrors(error);
  const httpError: HttpError = {
    message: getErrorMessage(error),
    statusCode: status ?? (timedOut ? 408 : 0),
  };
  if (fields.length) httpError.errors = Object.fromEntries(fields.map((f) => [f.field, f.message]));
  return httpError;
}

async function call<T>(request: () => Promise<{ data: T }>): Promise<T> {
  try {
    return (await request()).data;
  } catch (error) {
    throw toHttpError(error);
  }
}

/**
 * Creates a data provider for resources served under `base` by `client` (which owns the
 * bearer token and the 417/401/406 rules). The resource name is the path: `users` →
 * `${base}/users`, `users/me/devices` → `${base}/users/me/devices`.
 *
 * @example
 * <Refine dataProvider={{ default: createDataProvider(http, "/api"), crm: createDataProvider(http, "/crm") }} />
 */
export function createDataProvider(client: AxiosInstance, base: string): DataProvider {
  const url = (resource: string, id?: BaseKey): string =>
    id === undefined ? `${base}/${resource}` : `${base}/${resource}/${encodeURIComponent(String(id))}`;

  const deleteOne = async <TData extends BaseRecord>({ resource, id }: { resource: string; id: BaseKey }) => {
    const data = await call(() => client.delete<TData | "">(url(resource, id)));
    // 204 answers have no body; Refine still wants a record.
    return { data: (data || { id }) as TData };
  };

  return {
    getApiUrl: () => base,

    async getList<TData extends BaseRecord>({
      resource,
      pagination,
      sorters,
      filters,
      meta,
    }: Parameters<DataProvider["getList"]>[0]) {
      // `meta.query`: more query parameters of the list (a CMS list's `locale`).
      const params = {
        ...toListParams(pagination, sorters, filters),
        ...(meta?.query as object | undefined),
      };
      const body = await call(() =>
        client.get<ListResponse<TData>>(url(resource), { params, timeout: readTimeoutMs() }),
      );
      return { data: body.data, total: body.total, totalExact: body.totalExact !== false };
    },

    async getOne<TData extends BaseRecord>({ resource, id }: Parameters<DataProvider["getOne"]>[0]) {
      return { data: await call(() => client.get<TData>(url(resource, id), { timeout: readTimeoutMs() })) };
    },

    async create<TData extends BaseRecord, TVariables>({
      resource,
      variables,
    }: Parameters<DataProvider["create"]>[0] & { variables: TVariables }) {
      // One key per logical create, reused on every resend (providers/http.ts).
      return { data: await call(() => client.post<TData>(url(resource), variables, { idempotent: true })) };
    },

    async update<TData extends BaseRecord, TVariables>({
      resource,
      id,
      variables,
      meta,
    }: Parameters<DataProvider["update"]>[0] & { variables: TVariables }) {
      // `meta.query`: query parameters of the write (a CMS draft's `autosave=true`).
      const params = meta?.query as Record<string, string | number | boolean> | undefined;
      return { data: await call(() => client.patch<TData>(url(resource, id), variables, { params })) };
    },

    deleteOne,

    async getMany<TData extends BaseRecord>({
      resource,
      ids,
    }: Parameters<NonNullable<DataProvider["getMany"]>>[0]) {
      const data: TData[] = [];
      for (const params of toManyParams(ids)) {
        const body = await call(() =>
          client.get<ListResponse<TData>>(url(resource), { params, timeout: readTimeoutMs() }),
        );
        data.push(...body.data);
      }
      return { data };
    },

    async deleteMany<TData extends BaseRecord>({
      resource,
      ids,
    }: Parameters<NonNullable<DataProvider["deleteMany"]>>[0]) {
      // One request for the lot (`POST /<name>/delete { ids }`): all are deleted or none.
      await call(() => client.post<{ deleted: number }>(`${url(resource)}/delete`, { ids }));
      return { data: ids.map((id) => ({ id }) as unknown as TData) };
    },

    async custom<TData extends BaseRecord>({
      url: target,
      method,
      payload,
      query,
      headers,
      sorters,
      filters,
    }: Parameters<NonNullable<DataProvider["custom"]>>[0]) {
      const listParams = sorters || filters ? toListParams({ mode: "off" }, sorters, filters) : {};
      const params = { ...listParams, ...(query as Record<string, unknown> | undefined) };
      const data = await call(() =>
        client.request<TData>({ url: target, method, data: payload, params, headers }),
      );
      return { data };
    },
  };
}

/**
 * One provider per service base, keyed by the base's name (what a resource puts in
 * `meta.dataProviderName`), plus `default`, the first base's.
 *
 * @example
 * <Refine dataProvider={createDataProviders(http, { api: "/api", crm: "/crm" })} />
 */
export function createDataProviders<K extends string>(
  client: AxiosInstance,
  paths: Readonly<Record<K, string>>,
): Record<K | "default", DataProvider> {
  const entries = (Object.entries(paths) as [K, string][]).map(
    ([name, path]) => [name, createDataProvider(client, path)] as const,
  );
  return Object.fromEntries([["default", entries[0][1]], ...entries]) as Record<K | "default", DataProvider>;
}
