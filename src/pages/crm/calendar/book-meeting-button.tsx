import { CalendarOutlined } from "@ant-design/icons";
import { Button, Tooltip } from "antd";
import { Suspense, useState } from "react";
import { lazyScreen } from "../../../components/lazy-screen";

const BookMeetingDialog = lazyScreen(() => import("./book-meeting-dialog"));

/**
 * "Book meeting" in a client page's actions. The dialog is its own chunk, fetched on the first
 * click; a client without an email address cannot be invited, so the button says why it is off.
 */
export function BookMeetingButton({
  clientId,
  clientName,
  email,
}: {
  clientId: string;
  clientName: string;
  email: string | null;
}) {
  const [open, setOpen] = useState(false);
  const button = (
    <Button icon={<CalendarOutlined />} disabled={!email} onClick={() => setOpen(true)}>
      Book meeting
    </Button>
  );
  return (
    <>
      {email ? button : <Tooltip title="Add the client's email address to invite them">{button}</Tooltip>}
      {open && email && (
        <Suspense fallback={null}>
          <BookMeetingDialog
            clientId={clientId}
            clientName={clientName}
            email={email}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}
