import type { ReactNode } from "react";
import { Route } from "react-router";
import { canCreate, type ResourceDefinition, type ScreenName } from "../../resources/contract";
import { screenOf } from "./screens";

/** Wraps a page in the module guard of a resource. */
export type Guard = (resource: string, page: ReactNode) => ReactNode;

/**
 * The four routes of a resource (no create when the resource has none), relative to where they are mounted (its module's route,
 * or the root): `<name>`, `<name>/create`, `<name>/edit/:id`, `<name>/show/:id`, each page
 * behind the module guard. A function, not a component: React Router wants `<Route>`s.
 */
export function resourceRoute(def: ResourceDefinition, guard: Guard) {
  const page = (screen: ScreenName) => {
    const Page = screenOf(def, screen);
    // Keyed by resource: two resources' lists never share one component's state.
    return guard(def.name, <Page key={`${def.name}:${screen}`} def={def} />);
  };
  return (
    <Route key={def.name} path={def.name}>
      <Route index element={page("list")} />
      {canCreate(def) && <Route path="create" element={page("create")} />}
      <Route path="edit/:id" element={page("edit")} />
      <Route path="show/:id" element={page("show")} />
    </Route>
  );
}
