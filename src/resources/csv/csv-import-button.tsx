import { UploadOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useState } from "react";
import type { ScreenProps } from "../types";
import { CsvImportDialog } from "./csv-import-dialog";

/** Import CSV: opens the import dialog (a dry run first, then the import). */
export function CsvImportButton({ def }: ScreenProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)}>
        Import CSV
      </Button>
      <CsvImportDialog def={def} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
