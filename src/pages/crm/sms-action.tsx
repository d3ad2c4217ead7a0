/**
 * The client page's "SMS" action: a button that opens the SMS dialog, whose code loads only
 * when it is first opened.
 */
import { MessageOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { Suspense, useState } from "react";
import type { MergeField } from "../../../schemas/merge-fields";
import { lazyScreen } from "../../components/lazy-screen";
import type { ResourceRecord } from "../../resources/types";

const SmsDialog = lazyScreen(() => import("./sms-dialog"));

export function SmsAction({
  client,
  customFields,
}: {
  client: ResourceRecord;
  /** The client's custom fields the dialog's insert menu offers. */
  customFields?: readonly MergeField[];
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<MessageOutlined />} onClick={() => setOpen(true)}>
        SMS
      </Button>
      {open && (
        <Suspense fallback={null}>
          <SmsDialog client={client} customFields={customFields} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
