/**
 * Refine's React Router bindings, with the address parsed once per address instead of once per
 * hook (issue 28, "the first row within a second").
 *
 * Refine asks the router provider's `parse` in every `useParsed`, and `useResourceParams` asks
 * three times; a list screen has dozens (each row's buttons, the filters, the table). The stock
 * `parse` matches the address against every resource's routes in each of those hooks, and, on
 * an address without route parameters (a list's), makes a new params object on every render,
 * so every hook parses the query string again on every render: a fifth of a list's first
 * render in a profile. This `parse` gives the same answer (the same code, from
 * @refinedev/react-router 2) from a cache keyed by the resources and the address, so all hooks
 * share one answer and it stays the same object until the address changes.
 */
import {
  type IResourceItem,
  matchResourceFromRoute,
  type ParseResponse,
  ResourceContext,
  type RouterProvider,
} from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import qs from "qs";
import { useContext } from "react";
import { matchPath, useLocation, useParams } from "react-router";

/** Refine's depth for a list's query string (QS_PARSE_DEPTH in @refinedev/core). */
const QS_PARSE_DEPTH = 10;
/** Addresses remembered per set of resources; an app visits few, and a new set starts afresh. */
const MAX_ADDRESSES = 50;

/** A number where the text is exactly one ("2" → 2), else the text: Refine's own rule. */
function numberIfPossible(value: unknown): unknown {
  if (value === undefined) return value;
  const num = Number(value);
  return `${num}` === value ? num : value;
}

/** The answer of Refine's `parse` for an address (its code, run once). */
function parseAddress(
  pathname: string,
  search: string,
  routeParams: Record<string, string | undefined>,
  resources: IResourceItem[],
): ParseResponse {
  const { resource, action, matchedRoute } = matchResourceFromRoute(pathname, resources);
  const params =
    Object.keys(routeParams).length === 0 && matchedRoute
      ? (matchPath(matchedRoute, pathname)?.params ?? {})
      : routeParams;
  const combined: Record<string, unknown> = {
    ...params,
    ...qs.parse(search, { ignoreQueryPrefix: true, depth: QS_PARSE_DEPTH }),
  };
  return {
    ...(resource && { resource }),
    ...(action && { action }),
    ...(params.id && { id: decodeURIComponent(params.id) }),
    pathname,
    params: {
      ...combined,
      currentPage: numberIfPossible(combined.currentPage),
      pageSize: numberIfPossible(combined.pageSize),
      to: combined.to ? decodeURIComponent(String(combined.to)) : undefined,
    } as ParseResponse["params"],
  };
}

/** Per set of resources: each address's parse function (returning one shared answer). */
const parsers = new WeakMap<IResourceItem[], Map<string, () => ParseResponse>>();

function parserFor(
  pathname: string,
  search: string,
  routeParams: Record<string, string | undefined>,
  resources: IResourceItem[],
): () => ParseResponse {
  let byAddress = parsers.get(resources);
  if (!byAddress) {
    byAddress = new Map();
    parsers.set(resources, byAddress);
  }
  const key = `${pathname}\n${search}\n${JSON.stringify(routeParams)}`;
  let parser = byAddress.get(key);
  if (!parser) {
    const answer = parseAddress(pathname, search, routeParams, resources);
    parser = () => answer;
    if (byAddress.size >= MAX_ADDRESSES) byAddress.clear();
    byAddress.set(key, parser);
  }
  return parser;
}

/** React Router's bindings for Refine, with {@link parserFor}'s `parse`. */
export const atelierRouterProvider: RouterProvider = {
  ...routerProvider,
  parse: () => {
    const routeParams = useParams();
    const { pathname, search } = useLocation();
    const { resources } = useContext(ResourceContext);
    return parserFor(pathname, search, routeParams, resources);
  },
};
