import { Button } from "antd";
import { lazy, Suspense, useState } from "react";
import type { BulkActionProps } from "../../resources/types";

const loadDialog = () => import("./merge-clients-dialog");
const MergeClientsDialog = lazy(async () => ({ default: (await loadDialog()).MergeClientsDialog }));

/**
 * Merge, on the selection bar of clients: two or more selected clients become one (the
 * dialog, loaded when the button is first pointed at, chooses which is kept and shows what
 * differs).
 */
export function MergeClientsAction({ def, ids, onDone }: BulkActionProps) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const prefetch = () => void loadDialog();
  const enough = ids.length >= 2;
  return (
    <>
      <Button
        size="small"
        disabled={!enough}
        title={enough ? undefined : `Select two or more ${def.label.toLowerCase()} to merge them`}
        onPointerEnter={prefetch}
        onFocus={prefetch}
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        Merge…
      </Button>
      {used && (
        <Suspense fallback={null}>
          <MergeClientsDialog
            def={def}
            ids={ids}
            open={open}
            onClose={() => setOpen(false)}
            onMerged={() => {
              setOpen(false);
              onDone();
            }}
          />
        </Suspense>
      )}
    </>
  );
}
