/**
 * A resource's definition as its screens use it now: an `x-custom` resource (clients,
 * opportunities) with its custom fields merged into its schema (schemas/custom-fields.ts, the
 * merge the server's engine makes), so the generated list (columns, filters), forms, show page
 * and CSV buttons show them with no code of their own. The definitions come from
 * `GET /crm/custom-fields`, kept by react-query and read again when they change anywhere (the
 * `custom-fields` live channel): an open list or form takes a new field at once.
 */
import { useList } from "@refinedev/core";
import { type ComponentType, useMemo } from "react";
import type { ResourceDefinition } from "../../resources/contract";
import { type CustomField, withCustomFields } from "../../schemas/custom-fields";
import { LoadError } from "../components/load-error";
import { PageLoader } from "../components/page-loader";
import type { ScreenProps } from "./types";

/**
 * The definition with its custom fields, and whether they are still loading or failed.
 *
 * @example
 * const { def: clients } = useRuntimeDef(resourceByName("clients"));
 */
export function useRuntimeDef(def: ResourceDefinition) {
  const custom = Boolean(def.schema["x-custom"]);
  const { result, query } = useList<CustomField>({
    resource: "custom-fields",
    dataProviderName: "crm",
    pagination: { mode: "off" },
    liveMode: custom ? "auto" : "off",
    queryOptions: { enabled: custom, staleTime: 5 * 60_000 },
  });
  const fields = result.data;
  const effective = useMemo(
    () => (custom && fields?.length ? { ...def, schema: withCustomFields(def.schema, fields) } : def),
    [def, custom, fields],
  );
  return {
    def: effective,
    loading: custom && query.isLoading,
    error: custom && query.isError ? query.error : null,
    retry: () => query.refetch(),
  };
}

/** A screen and its props, shown with its resource's definition as it is now. */
export default function RuntimeDefScreen<P extends ScreenProps>({
  screen: Screen,
  props,
}: {
  screen: ComponentType<P>;
  props: P;
}) {
  const runtime = useRuntimeDef(props.def);
  if (runtime.error) return <LoadError what="custom fields" error={runtime.error} onRetry={runtime.retry} />;
  if (runtime.loading) return <PageLoader />;
  return <Screen {...props} def={runtime.def} />;
}
