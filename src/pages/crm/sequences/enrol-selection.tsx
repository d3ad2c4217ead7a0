/**
 * "Enrol in sequence" on the clients list's selection (the bulk action registry's
 * `crm.enrol-in-sequence`): the selected clients, up to 1000, into the sequence chosen.
 */
import { NodeIndexOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useState } from "react";
import type { BulkActionProps } from "../../../resources/types";
import { EnrolInSequenceDialog } from "./enrol-dialogs";

export default function EnrolSelection({ ids, onDone }: BulkActionProps) {
  const [open, setOpen] = useState(false);
  const who = ids.length === 1 ? "1 client" : `${ids.length} clients`;
  return (
    <>
      <Button size="small" icon={<NodeIndexOutlined />} onClick={() => setOpen(true)}>
        Enrol in sequence
      </Button>
      <EnrolInSequenceDialog
        open={open}
        onClose={() => setOpen(false)}
        clientIds={ids}
        who={who}
        onDone={onDone}
      />
    </>
  );
}
