import { ArrowLeftOutlined } from "@ant-design/icons";
import { Show } from "@refinedev/antd";
import { Button, Result } from "antd";
import { useNavigate } from "react-router";
import type { ResourceDefinition } from "../../resources/contract";
import { LoadError } from "../components/load-error";
import { resourceRoutes } from "./routes";
import type { RecordState } from "./show/record-state";

/** Where a record belongs: what one is called and the list to go back to. */
export interface RecordPlace {
  /** "Product". */
  singular: string;
  /** The list's label: "Products". */
  listLabel: string;
  /** The list's route: "/products/products". */
  listPath: string;
}

/** The place of a generated resource's records. */
export const placeOfResource = (def: ResourceDefinition): RecordPlace => ({
  singular: def.singular,
  listLabel: def.label,
  listPath: resourceRoutes(def).list,
});

function BackToList({ place, primary }: { place: RecordPlace; primary?: boolean }) {
  const navigate = useNavigate();
  return (
    <Button
      type={primary ? "primary" : "default"}
      icon={<ArrowLeftOutlined />}
      onClick={() => navigate(place.listPath)}
    >
      Back to {place.listLabel.toLowerCase()}
    </Button>
  );
}

/**
 * A record that is not there (deleted, or a wrong or malformed id in the URL): says so and
 * offers the way back to the list, with nothing to edit or delete.
 */
export function RecordNotFound({ place }: { place: RecordPlace }) {
  const singular = place.singular.toLowerCase();
  return (
    <div role="alert" data-record-state="not-found">
      <Result
        status="404"
        title={`This ${singular} was not found`}
        subTitle={`It may have been deleted, or the link to it is wrong.`}
        extra={<BackToList place={place} primary />}
      />
    </div>
  );
}

/**
 * The body of a record screen whose record is not on screen: not found, or a load that
 * failed (with Retry, and a retry by itself when an offline browser comes back online).
 *
 * @example
 * const state = recordState(id, query);
 * if (state === "not-found" || state === "failed")
 *   return <RecordUnavailable place={place} state={state} error={query.error} onRetry={() => query.refetch()} />;
 */
export function RecordUnavailable({
  place,
  state,
  error,
  onRetry,
}: {
  place: RecordPlace;
  state: Extract<RecordState, "not-found" | "failed">;
  error: unknown;
  onRetry: () => unknown;
}) {
  if (state === "not-found") return <RecordNotFound place={place} />;
  return (
    <LoadError
      what={place.singular.toLowerCase()}
      error={error}
      onRetry={onRetry}
      extra={<BackToList place={place} />}
    />
  );
}

/**
 * A whole record screen for a record that is not on screen: the page frame (breadcrumb, back
 * arrow, `title`) with no buttons in it (nothing to edit, delete or save), around
 * {@link RecordUnavailable}. The edit screens use it too: Edit's frame would keep an empty
 * footer bar where Save was.
 *
 * @example
 * if (state === "not-found" || state === "failed")
 *   return <RecordUnavailablePage title="Edit product" resource="products" place={place} state={state} error={query.error} onRetry={() => query.refetch()} />;
 */
export function RecordUnavailablePage({
  title,
  resource,
  ...body
}: Parameters<typeof RecordUnavailable>[0] & { title: string; resource?: string }) {
  return (
    <Show resource={resource} title={title} headerButtons={() => null}>
      <RecordUnavailable {...body} />
    </Show>
  );
}

/**
 * The show screen of a resource's record that did not load, or null when it did (or is still
 * loading): what the generated show page and the custom show pages (a client, a sequence) answer
 * in its place.
 *
 * @example
 * const unavailable = unavailableShowPage(def, recordState(id, query), query);
 * if (unavailable) return unavailable;
 */
export function unavailableShowPage(
  def: ResourceDefinition,
  state: RecordState,
  query: { error: unknown; refetch: () => unknown },
) {
  if (state !== "not-found" && state !== "failed") return null;
  return (
    <RecordUnavailablePage
      resource={def.name}
      title={def.singular}
      place={placeOfResource(def)}
      state={state}
      error={query.error}
      onRetry={() => query.refetch()}
    />
  );
}
