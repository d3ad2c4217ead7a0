import type { CrudFilter, CrudSort } from "@refinedev/core";
import type { ReactNode } from "react";
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

/** Props of an action on the rows selected: the resource, their ids, and how to clear the selection. */
export interface BulkActionProps extends ScreenProps {
  ids: string[];
  onDone: () => void;
}

/** Props of a row action: the resource and the row's record. */
export interface RowActionProps extends ScreenProps {
  record: ResourceRecord;
}

/** A record as the API answers it: `id`, audit fields and the schema's fields. */
export type ResourceRecord = { id: string } & Record<string, unknown>;

/**
 * A generated list shown inside another page (a form's Submissions tab) instead of at its own
 * route: no page header, no query in the address, and records opened in place.
 */
export interface ListEmbedding {
  /** Opens a record where the list is (a drawer): its label link, Show, and a click on its row. */
  onOpen: (record: ResourceRecord) => void;
  /** What the list says when it holds nothing and no filter is set. */
  empty?: ReactNode;
}
