import { type ParseResponse, ResourceContext } from "@refinedev/core";
import stockRouterProvider from "@refinedev/react-router";
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter, Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { RESOURCES } from "./resources";
import { atelierRouterProvider } from "./router-provider";

type Parse = () => () => ParseResponse;

/** What each provider's `parse` answers at `address`, rendered under `route` like the app's routes. */
function parsedAt(address: string, route = "*") {
  const answers: { stock?: ParseResponse; ours?: ParseResponse; again?: ParseResponse } = {};
  function Probe() {
    answers.stock = (stockRouterProvider.parse as Parse)()();
    answers.ours = (atelierRouterProvider.parse as Parse)()();
    answers.again = (atelierRouterProvider.parse as Parse)()();
    return null;
  }
  renderToString(
    h(
      ResourceContext.Provider,
      { value: { resources: RESOURCES as never } },
      h(
        MemoryRouter,
        { initialEntries: [address] },
        h(Routes, null, h(Route, { path: route, element: h(Probe) })),
      ),
    ),
  );
  return answers;
}

describe("atelierRouterProvider.parse", () => {
  it.each<[string, string?]>([
    ["/products/products"],
    ["/products/products?currentPage=2&pageSize=50&sorters[0][field]=name&sorters[0][order]=asc"],
    ["/products/products?filters[0][field]=status&filters[0][operator]=eq&filters[0][value]=active"],
    ["/products/products/edit/7f0c"],
    ["/crm/clients/show/abc%20def"],
    ["/users/edit/12", "/users/edit/:id"],
    ["/"],
    ["/nowhere/at/all?to=%2Fproducts"],
  ])("answers %s as Refine's own parse does", (address, route) => {
    const { stock, ours } = parsedAt(address, route);
    expect(ours).toEqual(stock);
  });

  it("gives every hook at one address the same answer, so memoised consumers keep it", () => {
    const { ours, again } = parsedAt("/products/products?currentPage=3");
    expect(again).toBe(ours);
    expect(ours?.params?.currentPage).toBe(3);
    expect(ours?.resource?.name).toBe("products");
  });
});
