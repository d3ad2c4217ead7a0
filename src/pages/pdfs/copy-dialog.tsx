import { App, Flex, InputNumber, Modal, Radio, Typography } from "antd";
import { useState } from "react";
import { getErrorMessage } from "../../lib/errors";

/** Copies all of a page's hotspots, or the selected one, to another page (beside its own). */
export function CopyDialog(props: {
  open: boolean;
  page: number;
  pageCount: number;
  hasSelection: boolean;
  onClose: () => void;
  onCopy: (to: number, which: "all" | "selected") => Promise<void>;
}) {
  const { message } = App.useApp();
  const [to, setTo] = useState<number | null>(null);
  const [which, setWhich] = useState<"all" | "selected">("all");
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      title="Copy hotspots to another page"
      open={props.open}
      onCancel={props.onClose}
      okText="Copy"
      okButtonProps={{ disabled: !to || to === props.page, loading: busy }}
      destroyOnHidden
      onOk={async () => {
        if (!to) return;
        setBusy(true);
        try {
          await props.onCopy(to, which);
        } catch (error) {
          message.error(getErrorMessage(error));
        } finally {
          setBusy(false);
        }
      }}
    >
      <Flex vertical gap={12}>
        <Radio.Group value={which} onChange={(e) => setWhich(e.target.value)}>
          <Radio value="all">All hotspots of page {props.page}</Radio>
          <Radio value="selected" disabled={!props.hasSelection}>
            The selected hotspot
          </Radio>
        </Radio.Group>
        <InputNumber
          aria-label="Copy to page"
          placeholder="Page"
          min={1}
          max={props.pageCount}
          value={to}
          onChange={(v) => setTo(v)}
          addonBefore="To page"
        />
        <Typography.Text type="secondary">
          They are added beside the hotspots that page already has.
        </Typography.Text>
      </Flex>
    </Modal>
  );
}
