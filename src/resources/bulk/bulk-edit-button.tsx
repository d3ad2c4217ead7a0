import { EditOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { lazy, Suspense, useState } from "react";
import type { ResourceDefinition } from "../../../resources/contract";
import type { BulkUpdateInput } from "../../../schemas/saved-views";

/** What the bulk edit changes: the rows chosen, or every record the list's filters match. */
export type BulkTarget =
  | { kind: "ids"; ids: string[] }
  | { kind: "matching"; filters?: BulkUpdateInput["filters"]; q?: string; total: number };

// The dialog holds the resource form: loaded on the first click, not with every list.
const BulkEditDialog = lazy(() => import("./bulk-edit"));

/** "Edit field" on the selection bar: opens the bulk edit's dialog (bulk-edit.tsx). */
export function BulkEditButton({
  def,
  target,
  onDone,
}: {
  def: ResourceDefinition;
  target: BulkTarget;
  onDone: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" icon={<EditOutlined />} onClick={() => setOpen(true)}>
        Edit field
      </Button>
      {open && (
        <Suspense fallback={null}>
          <BulkEditDialog
            def={def}
            target={target}
            onClose={(changed) => {
              setOpen(false);
              if (changed) onDone();
            }}
          />
        </Suspense>
      )}
    </>
  );
}
