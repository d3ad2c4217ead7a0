import type { CrudFilter, CrudSort } from "@refinedev/core";
import type { ResourceDefinition } from "../../resources/contract";

/** Props of every resource screen, generated or custom: the resource it shows. */
export interface ScreenProps {
  def: ResourceDefinition;
}

/** Props of a list toolbar action: the resource and the list's current query. */
export interface ToolbarActionProps extends ScreenProps {
  filters: CrudFilter[];
  sorters: CrudSort[];
}

/** Props of a row action: the resource and the row's record. */
export interface RowActionProps extends ScreenProps {
  record: ResourceRecord;
}

/** A record as the API answers it: `id`, audit fields and the schema's fields. */
export type ResourceRecord = { id: string } & Record<string, unknown>;
