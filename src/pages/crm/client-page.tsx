/**
 * A client's page (custom show page "crm.client"): who they are and how to reach them, what
 * they agreed to, their open opportunities and tasks, and the timeline of everything that
 * happened with them. The header's actions are where a person acts on the client: edit,
 * email, SMS, book a meeting, enrol in a sequence (each dialog its own lazy component).
 */
import { EditOutlined, MailOutlined, PhoneOutlined, PlusOutlined } from "@ant-design/icons";
import { useGetIdentity, useList, useShow } from "@refinedev/core";
import { Alert, Button, Card, Descriptions, Space, Tag, Typography } from "antd";
import { Link, useNavigate, useParams } from "react-router";
import type { MeResponse } from "../../../schemas/auth";
import { formatMoney } from "../../../schemas/money";
import { DateText } from "../../components/date-text";
import { detailFields } from "../../resources/columns";
import { FieldValue } from "../../resources/field-value";
import { fieldTitle } from "../../resources/fields";
import { optionText, useOptionList } from "../../resources/options";
import { unavailableShowPage } from "../../resources/record-not-found";
import { recordState } from "../../resources/show/record-state";
import type { ResourceRecord, ScreenProps } from "../../resources/types";
import { BookMeetingButton } from "./calendar/book-meeting-button";
import { UpcomingMeetings } from "./calendar/upcoming-meetings";
import { ClientTimeline } from "./client-timeline";
import { ClientEmails, emailClientOf } from "./email/client-emails";
import { EmailButton } from "./email/email-button";
import { ClientSequences, EnrolInSequenceButton } from "./sequences/client-sequences";
import "./crm.css";
import { recordPath } from "../../resources/routes";
import { SmsAction } from "./sms-action";

/** Shown in the header or the side cards, so the details list leaves them out. */
const HEADER_FIELDS = new Set(["name", "email", "phone", "company", "job_title", "tags"]);

export default function ClientPage({ def }: ScreenProps) {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const { data: me } = useGetIdentity<MeResponse>();
  const { query } = useShow<ResourceRecord>({ resource: def.name, id, errorNotification: false });
  const client = query.data?.data;
  const state = recordState(id, query);

  const unavailable = unavailableShowPage(def, state, query);
  if (unavailable) return unavailable;
  if (!client) return <Card loading className="crm-client-loading" />;

  const email = client.email as string | null;
  const phone = client.phone as string | null;
  const subtitle = [client.job_title, client.company].filter(Boolean).join(" · ");
  const tags = (client.tags as string[] | null) ?? [];
  const messaged = emailClientOf(client, def.schema);

  return (
    <div className="crm-client-page">
      <header className="crm-client-header">
        <div className="crm-client-identity">
          <Typography.Title level={3} className="crm-client-name">
            {String(client.name)}
          </Typography.Title>
          {subtitle && <Typography.Text type="secondary">{subtitle}</Typography.Text>}
          <Space size={16} wrap className="crm-client-contacts">
            {email && (
              <a href={`mailto:${email}`}>
                <MailOutlined aria-hidden /> {email}
              </a>
            )}
            {phone && (
              <a href={`tel:${phone}`}>
                <PhoneOutlined aria-hidden /> {phone}
              </a>
            )}
          </Space>
          {tags.length > 0 && (
            <div className="crm-client-tags">
              <FieldValue schema={def.schema} field="tags" record={client} variant="detail" />
            </div>
          )}
        </div>
        <Space wrap className="crm-client-actions" aria-label="Actions">
          <Button icon={<EditOutlined />} onClick={() => navigate(recordPath(def, "edit", id))}>
            Edit
          </Button>
          <BookMeetingButton clientId={id} clientName={String(client.name)} email={email} />
          <EmailButton client={messaged} />
          <SmsAction client={client} customFields={messaged.customFields} />
          <EnrolInSequenceButton clientId={id} clientName={String(client.name)} />
        </Space>
      </header>
      {client.sms_opted_out_at ? (
        <Alert
          type="warning"
          showIcon
          message="This client has opted out of SMS"
          description={
            <>
              They texted STOP on <DateText value={String(client.sms_opted_out_at)} />. They can opt back in
              by texting START.
            </>
          }
        />
      ) : null}
      <div className="crm-client-columns">
        <div className="crm-client-side">
          <Card title="Details" size="small">
            <Descriptions column={1} size="small">
              {detailFields(def)
                .filter((f) => !HEADER_FIELDS.has(f) && !["id", "created_by", "updated_by"].includes(f))
                .map((field) => (
                  <Descriptions.Item key={field} label={fieldTitle(def.schema, field)}>
                    <FieldValue schema={def.schema} field={field} record={client} variant="detail" />
                  </Descriptions.Item>
                ))}
            </Descriptions>
          </Card>
          <ClientOpportunities clientId={id} />
          <ClientTasks clientId={id} />
          <UpcomingMeetings clientId={id} />
          <ClientSequences clientId={id} />
        </div>
        <div className="crm-client-main">
          <ClientEmails client={messaged} />
          <Card title="Timeline" size="small">
            <ClientTimeline clientId={id} userId={me?.userID} />
          </Card>
        </div>
      </div>
    </div>
  );
}

function ClientOpportunities({ clientId }: { clientId: string }) {
  const { result, query } = useList<ResourceRecord>({
    resource: "opportunities",
    filters: [{ field: "client_id", operator: "eq", value: clientId }],
    sorters: [{ field: "updated_at", order: "desc" }],
    pagination: { pageSize: 20 },
  });
  const rows = result?.data ?? [];
  const { options: stages } = useOptionList("stage");
  return (
    <Card
      title="Opportunities"
      size="small"
      loading={query.isPending}
      extra={
        <Link to={`/crm/opportunities/create?client_id=${clientId}`}>
          <PlusOutlined aria-hidden /> New
        </Link>
      }
    >
      {rows.length === 0 ? (
        <Typography.Text type="secondary">No opportunities yet</Typography.Text>
      ) : (
        <ul className="crm-side-list">
          {rows.map((o) => (
            <li key={o.id}>
              <Link to={`/crm/opportunities/show/${o.id}`}>{String(o.title)}</Link>
              <span className="crm-side-meta">
                {formatMoney(Number(o.value), typeof o.currency === "string" ? o.currency : null)}{" "}
                <Tag
                  bordered={false}
                  color={o.status === "won" ? "green" : o.status === "lost" ? "red" : "blue"}
                >
                  {o.status === "open"
                    ? optionText(stages, String(o.stage))
                    : o.status === "won"
                      ? "Won"
                      : "Lost"}
                </Tag>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function ClientTasks({ clientId }: { clientId: string }) {
  const { result, query } = useList<ResourceRecord>({
    resource: "tasks",
    filters: [
      { field: "client_id", operator: "eq", value: clientId },
      { field: "done", operator: "eq", value: false },
    ],
    sorters: [{ field: "due_at", order: "asc" }],
    pagination: { pageSize: 20 },
  });
  const rows = result?.data ?? [];
  return (
    <Card
      title="Open tasks"
      size="small"
      loading={query.isPending}
      extra={
        <Link to={`/crm/tasks/create?client_id=${clientId}`}>
          <PlusOutlined aria-hidden /> New
        </Link>
      }
    >
      {rows.length === 0 ? (
        <Typography.Text type="secondary">Nothing to do</Typography.Text>
      ) : (
        <ul className="crm-side-list">
          {rows.map((t) => (
            <li key={t.id}>
              <Link to={`/crm/tasks/show/${t.id}`}>{String(t.title)}</Link>
              <span className="crm-side-meta">
                <DateText value={t.due_at as string | null} fallback="No due date" />
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
