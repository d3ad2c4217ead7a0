/**
 * "Email" on a client's page: opens the email dialog (loaded on first use). Disabled, saying
 * why, for a client without an address or who has not agreed to receive email — the server
 * refuses those too (409).
 */
import { MailOutlined } from "@ant-design/icons";
import { Button, Tooltip } from "antd";
import { lazy, Suspense, useState } from "react";
import type { SendEmailResponse } from "../../../../schemas/crm-messages";
import type { EmailClient } from "./email-modal";

const EmailModal = lazy(() => import("./email-modal"));

/** Why a client cannot be emailed, or null when they can. */
export function emailBlockedReason(client: EmailClient): string | null {
  if (!client.email) return "This client has no email address";
  if (!client.consent_email) return "This client has not agreed to receive email";
  return null;
}

export interface EmailButtonProps {
  client: EmailClient;
  /** Answer in this conversation instead of starting one. */
  threadId?: string | null;
  subject?: string;
  label?: string;
  size?: "small" | "middle";
  onSent?: (sent: SendEmailResponse) => void;
}

export function EmailButton({ client, threadId, subject, label = "Email", size, onSent }: EmailButtonProps) {
  const [open, setOpen] = useState(false);
  const blocked = emailBlockedReason(client);
  const button = (
    <Button
      icon={<MailOutlined aria-hidden />}
      size={size}
      disabled={!!blocked}
      onClick={() => setOpen(true)}
    >
      {label}
    </Button>
  );
  return (
    <>
      {blocked ? (
        <Tooltip title={blocked}>
          {/* A disabled button gets no pointer events: the span carries the tooltip. */}
          <span>{button}</span>
        </Tooltip>
      ) : (
        button
      )}
      {open && (
        <Suspense fallback={null}>
          <EmailModal
            client={client}
            threadId={threadId}
            initialSubject={subject}
            onSent={onSent}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}
