/**
 * The client page's "SMS" action: a button that opens the SMS dialog, whose code loads only
 * when it is first opened.
 */
import { MessageOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { Suspense, useState } from "react";
import { lazyScreen } from "../../components/lazy-screen";
import type { ResourceRecord } from "../../resources/types";

const SmsDialog = lazyScreen(() => import("./sms-dialog"));

export function SmsAction({ client }: { client: ResourceRecord }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<MessageOutlined />} onClick={() => setOpen(true)}>
        SMS
      </Button>
      {open && (
        <Suspense fallback={null}>
          <SmsDialog client={client} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
