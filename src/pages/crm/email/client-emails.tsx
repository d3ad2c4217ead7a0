/**
 * A client's email conversations on their page: one block per thread (latest first), its mails
 * oldest first — what was sent, and the client's replies under it — with Reply, which answers
 * inside the thread (same reply address, threaded in the client's mail program). Refreshed live
 * when the client's timeline grows (a reply arriving).
 */
import { useSubscription } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Empty, Flex, Tag, Typography } from "antd";
import type { MessageStatus } from "../../../../schemas/crm-messages";
import { DateText } from "../../../components/date-text";
import { LoadError } from "../../../components/load-error";
import { emailKeys, listMessages } from "./email-api";
import { EmailButton } from "./email-button";
import type { EmailClient } from "./email-modal";
import { emailThreads, replySubject } from "./email-threads";
import "../../../resources/rich-text.css";
import "./crm-email.css";

const STATUS: Readonly<Record<MessageStatus, { label: string; color: string }>> = {
  queued: { label: "Sending", color: "gold" },
  stored: { label: "In the outbox", color: "blue" },
  sent: { label: "Sent", color: "green" },
  delivered: { label: "Delivered", color: "green" },
  undelivered: { label: "Not delivered", color: "red" },
  failed: { label: "Failed", color: "red" },
  received: { label: "Received", color: "cyan" },
};

export function ClientEmails({ client }: { client: EmailClient }) {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: emailKeys.messages(client.id), queryFn: () => listMessages(client.id) });
  useSubscription({
    channel: "resources/client-timeline",
    types: ["created"],
    onLiveEvent: (event) => {
      if (((event.payload as { ids?: string[] }).ids ?? []).includes(client.id))
        void queryClient.invalidateQueries({ queryKey: emailKeys.messages(client.id) });
    },
  });

  if (query.isError)
    return <LoadError what="the emails" error={query.error} onRetry={() => query.refetch()} compact />;
  if (query.isPending) return <Typography.Text type="secondary">Loading the emails…</Typography.Text>;
  const threads = emailThreads(query.data.data);
  if (!threads.length)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No emails with this client yet" />;
  return (
    <ol className="crm-threads" aria-label="Email conversations">
      {threads.map((thread) => (
        <li key={thread.id} className="crm-thread">
          <Flex justify="space-between" align="center" gap={8} wrap>
            <Typography.Text strong>{thread.subject}</Typography.Text>
            <EmailButton
              client={client}
              threadId={thread.messages[0].thread_id}
              subject={replySubject(thread.subject)}
              label="Reply"
              size="small"
            />
          </Flex>
          <ol className="crm-thread-messages">
            {thread.messages.map((m) => (
              <li key={m.id} className="crm-thread-message" data-direction={m.direction}>
                <Flex gap={8} align="center" wrap>
                  <Typography.Text type="secondary">
                    {m.direction === "in" ? `From ${m.from}` : `To ${m.to}`}
                  </Typography.Text>
                  <Typography.Text type="secondary">
                    <DateText value={m.created_at} />
                  </Typography.Text>
                  <Tag color={STATUS[m.status].color}>{STATUS[m.status].label}</Tag>
                  {m.attachments.length > 0 && (
                    <Typography.Text type="secondary">
                      {m.attachments.map((a) => a.name).join(", ")}
                    </Typography.Text>
                  )}
                </Flex>
                {m.error && <Typography.Text type="danger">{m.error}</Typography.Text>}
                <div
                  className="atelier-rich-text__content"
                  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server before it is stored
                  dangerouslySetInnerHTML={{ __html: m.body }}
                />
              </li>
            ))}
          </ol>
        </li>
      ))}
    </ol>
  );
}
