/**
 * A client's email conversations on their page: one per thread (latest first), opened to read
 * its mails oldest first — what was sent, and the client's replies under it — with Reply, which
 * answers inside the thread (same reply address, threaded in the client's mail program).
 * Refreshed live when the client's timeline grows (a reply arriving).
 */

import { PaperClipOutlined } from "@ant-design/icons";
import { useSubscription } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Card, Flex, Tag, Typography } from "antd";
import type { EntitySchema } from "../../../../schemas/contract";
import { engagementText, type MessageStatus } from "../../../../schemas/crm-messages";
import { customMergeFields } from "../../../../schemas/merge-fields";
import { statusLabel } from "../../../../schemas/status-labels";
import { DateText } from "../../../components/date-text";
import { LoadError } from "../../../components/load-error";
import { emailKeys, listMessages } from "./email-api";
import { EmailButton } from "./email-button";
import type { EmailClient } from "./email-modal";
import { emailThreads, replySubject } from "./email-threads";
import "../../../resources/rich-text.css";
import "./crm-email.css";

const STATUS_COLOURS: Readonly<Record<MessageStatus, string>> = {
  queued: "gold",
  stored: "blue",
  sent: "green",
  delivered: "green",
  undelivered: "red",
  failed: "red",
  received: "cyan",
};

/**
 * The client as the email components need it, from the page's record and its resource's schema
 * (whose custom fields the insert menu offers).
 */
export function emailClientOf(
  record: { id: string } & Record<string, unknown>,
  schema?: Pick<EntitySchema, "properties" | "x-customFields">,
): EmailClient {
  return {
    id: record.id,
    name: String(record.name ?? ""),
    email: typeof record.email === "string" ? record.email : null,
    consent_email: record.consent_email === true,
    customFields: schema ? customMergeFields(schema) : [],
  };
}

/** The "Emails" card of a client's page: conversations, each opened to read and answer. */
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
  const threads = query.data ? emailThreads(query.data.data) : [];

  return (
    <Card title="Emails" size="small" className="crm-emails-card" loading={query.isPending}>
      {query.isError ? (
        <LoadError what="the emails" error={query.error} onRetry={() => query.refetch()} compact />
      ) : threads.length === 0 ? (
        <Typography.Text type="secondary">No emails with this client yet</Typography.Text>
      ) : (
        <ol className="crm-threads" aria-label="Email conversations">
          {threads.map((thread) => (
            <li key={thread.id}>
              <details className="crm-thread">
                <summary>
                  <Typography.Text strong>{thread.subject}</Typography.Text>
                  <Typography.Text type="secondary">
                    {thread.messages.length === 1 ? "1 mail" : `${thread.messages.length} mails`}
                    {thread.messages.some((m) => m.direction === "in") ? ", replied" : ""} · last{" "}
                    <DateText value={thread.lastAt} />
                  </Typography.Text>
                </summary>
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
                        <Tag color={STATUS_COLOURS[m.status]}>{statusLabel(m.status)}</Tag>
                        {m.direction === "out" && engagementText(m) && (
                          <Typography.Text type="secondary">{engagementText(m)}</Typography.Text>
                        )}
                        {m.attachments.length > 0 && (
                          <Typography.Text type="secondary">
                            <PaperClipOutlined aria-label="Attachments" />{" "}
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
                <EmailButton
                  client={client}
                  threadId={thread.messages[0].thread_id}
                  subject={replySubject(thread.subject)}
                  label="Reply"
                  size="small"
                />
              </details>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
