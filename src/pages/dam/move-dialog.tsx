import { Modal, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import type { Selection } from "./dam-api";
import { describeSelection } from "./dam-logic";
import { FolderTree } from "./folder-tree";

export interface MoveDialogProps {
  /** What to move; null: closed. */
  selection: Selection | null;
  /** The folder the items are in now (the default target is excluded). */
  from: string | null;
  onMove: (target: string | null) => Promise<void>;
  onClose: () => void;
}

/** "Move to…": pick a folder in the tree (the moved folders themselves cannot be picked). */
export function MoveDialog({ selection, from, onMove, onClose }: MoveDialogProps) {
  const [target, setTarget] = useState<string | null | undefined>(undefined);
  const [moving, setMoving] = useState(false);
  useEffect(() => {
    if (selection) setTarget(undefined);
  }, [selection]);
  const disabled = useMemo(() => new Set(selection?.folderIds ?? []), [selection]);
  const count = selection ? describeSelection(selection.folderIds.length, selection.assetIds.length) : "";

  return (
    <Modal
      title={`Move ${count}`}
      open={selection !== null}
      onCancel={onClose}
      okText="Move here"
      okButtonProps={{ disabled: target === undefined || target === from, loading: moving }}
      onOk={async () => {
        if (target === undefined) return;
        setMoving(true);
        try {
          await onMove(target);
        } finally {
          setMoving(false);
        }
      }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">Choose the folder to move to.</Typography.Paragraph>
      <div style={{ maxHeight: 360, overflowY: "auto" }}>
        <FolderTree value={target} onSelect={setTarget} disabledIds={disabled} rootLabel="Top level" />
      </div>
    </Modal>
  );
}
