import { UploadOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { lazy, Suspense, useState } from "react";
import type { ScreenProps } from "../types";

const loadDialog = () => import("./csv-import-dialog");
const CsvImportDialog = lazy(async () => ({ default: (await loadDialog()).CsvImportDialog }));

/**
 * Import CSV: opens the import dialog (a dry run first, then the import). The dialog (its
 * upload and progress parts) loads when the button is first pointed at or focused, not with
 * the list.
 */
export function CsvImportButton({ def }: ScreenProps) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const prefetch = () => void loadDialog();
  return (
    <>
      <Button
        icon={<UploadOutlined />}
        onPointerEnter={prefetch}
        onFocus={prefetch}
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        Import CSV
      </Button>
      {used && (
        <Suspense fallback={null}>
          <CsvImportDialog def={def} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
