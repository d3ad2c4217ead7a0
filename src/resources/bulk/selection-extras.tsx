import type { CrudFilter } from "@refinedev/core";
import { Button } from "antd";
import { toListParams } from "../../../providers/data-provider";
import type { ResourceDefinition } from "../../../resources/contract";
import type { BulkUpdateInput } from "../../../schemas/saved-views";
import { BulkEditButton, type BulkTarget } from "./bulk-edit-button";

interface SelectionExtrasProps {
  def: ResourceDefinition;
  ids: string[];
  /** Rows on the page shown, and how many records match the list's filters. */
  pageRows: number;
  total: number | undefined;
  filters: CrudFilter[];
  allMatching: boolean;
  setAllMatching: (on: boolean) => void;
  onDone: () => void;
}

/** The list's filters and search as the bulk-edit route takes them (the list's own reading). */
function matchingOf(filters: CrudFilter[]): Pick<BulkUpdateInput, "filters" | "q"> {
  const params = toListParams({ mode: "off" }, undefined, filters);
  return {
    filters: params.filters ? JSON.parse(String(params.filters)) : [],
    ...(params.q ? { q: String(params.q) } : {}),
  };
}

/**
 * On the selection bar: "Select all N matching" once the whole page is selected and more
 * records match, then "Edit field" on the rows chosen or on all of them.
 */
export function SelectionExtras({
  def,
  ids,
  pageRows,
  total,
  filters,
  allMatching,
  setAllMatching,
  onDone,
}: SelectionExtrasProps) {
  const plural = def.label.toLowerCase();
  const offerAll =
    !allMatching && total !== undefined && total > ids.length && ids.length >= pageRows && pageRows > 0;
  const target: BulkTarget =
    allMatching && total !== undefined
      ? { kind: "matching", ...matchingOf(filters), total }
      : { kind: "ids", ids };
  return (
    <>
      {offerAll && (
        <Button size="small" type="link" onClick={() => setAllMatching(true)}>
          {`Select all ${total.toLocaleString("en-IN")} ${plural} matching the filter`}
        </Button>
      )}
      <BulkEditButton def={def} target={target} onDone={onDone} />
    </>
  );
}
