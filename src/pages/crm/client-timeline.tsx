/**
 * A client's timeline (spec §3 `clientData`): one list of everything that happened with them,
 * newest first — notes, mails and SMS both ways (and opens and clicks of mails), form submissions with their campaign, moves
 * of their opportunities, meetings, tasks, sequence steps — filterable by kind, paged by
 * "Show older", and refreshed live when anyone adds to it.
 */
import {
  CalendarOutlined,
  CheckSquareOutlined,
  DeleteOutlined,
  EyeOutlined,
  FileDoneOutlined,
  FormOutlined,
  FundOutlined,
  LinkOutlined,
  MailOutlined,
  MessageOutlined,
  NodeIndexOutlined,
  ShopOutlined,
  SnippetsOutlined,
} from "@ant-design/icons";
import { useSubscription } from "@refinedev/core";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Empty, Input, Popconfirm, Space, Tag, Typography } from "antd";
import { type ReactNode, useState } from "react";
import { TIMELINE_KIND_LABELS, type TimelineKind } from "../../../schemas/crm";
import { statusLabel } from "../../../schemas/status-labels";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import { getErrorMessage } from "../../lib/errors";
import { addNote, crmKeys, deleteNote, getTimeline, type TimelineEntry } from "./crm-api";
import "./crm.css";

const KIND_ICONS: Record<TimelineKind, ReactNode> = {
  note: <SnippetsOutlined />,
  email_out: <MailOutlined />,
  email_in: <MailOutlined />,
  email_opened: <EyeOutlined />,
  email_clicked: <LinkOutlined />,
  sms_out: <MessageOutlined />,
  sms_in: <MessageOutlined />,
  form: <FormOutlined />,
  opportunity: <FundOutlined />,
  meeting: <CalendarOutlined />,
  task: <CheckSquareOutlined />,
  sequence: <NodeIndexOutlined />,
  store: <ShopOutlined />,
  proposal: <FileDoneOutlined />,
};

/** What the filter offers: both directions of a channel are one choice. */
const FILTERS: ReadonlyArray<{ label: string; kinds: TimelineKind[] }> = [
  { label: "Notes", kinds: ["note"] },
  { label: "Email", kinds: ["email_out", "email_in", "email_opened", "email_clicked"] },
  { label: "SMS", kinds: ["sms_out", "sms_in"] },
  { label: "Forms", kinds: ["form"] },
  { label: "Opportunities", kinds: ["opportunity"] },
  { label: "Meetings", kinds: ["meeting"] },
  { label: "Tasks", kinds: ["task"] },
  { label: "Sequences", kinds: ["sequence"] },
  { label: "Proposals", kinds: ["proposal"] },
];

/** Entry details worth a line of their own, by kind and data key. */
const MESSAGE_DETAILS = { from: "From", to: "To", subject: "Subject", status: "Status" };
const DETAILS: Partial<Record<TimelineKind, Readonly<Record<string, string>>>> = {
  email_out: MESSAGE_DETAILS,
  email_in: MESSAGE_DETAILS,
  sms_out: MESSAGE_DETAILS,
  sms_in: MESSAGE_DETAILS,
  form: {
    utm_source: "Source",
    utm_medium: "Medium",
    utm_campaign: "Campaign",
    utm_term: "Term",
    utm_content: "Content",
  },
  meeting: { when: "When", location: "Where" },
};

export function ClientTimeline({ clientId, userId }: { clientId: string; userId?: string }) {
  const [filter, setFilter] = useState<string[]>([]);
  const kinds = FILTERS.filter((f) => filter.includes(f.label)).flatMap((f) => f.kinds);
  const queryClient = useQueryClient();
  const query = useInfiniteQuery({
    queryKey: crmKeys.timeline(clientId, kinds),
    queryFn: ({ pageParam }) => getTimeline(clientId, kinds, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: crmKeys.timelineOf(clientId) });

  // Anyone's addition (a reply arriving, a colleague's note, a move on the board) shows at once.
  useSubscription({
    channel: "resources/client-timeline",
    types: ["created"],
    onLiveEvent: (event) => {
      if (((event.payload as { ids?: string[] }).ids ?? []).includes(clientId)) void refresh();
    },
  });
  useSubscription({
    channel: "resources/opportunities",
    types: ["created", "updated"],
    onLiveEvent: () => void refresh(),
  });

  const entries = query.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section className="crm-timeline" aria-label="Timeline">
      <NoteComposer clientId={clientId} onAdded={refresh} />
      <fieldset className="crm-timeline-filters">
        <legend className="crm-timeline-legend">Show only</legend>
        {FILTERS.map((f) => (
          <Tag.CheckableTag
            key={f.label}
            checked={filter.includes(f.label)}
            onChange={(on) => setFilter((now) => (on ? [...now, f.label] : now.filter((x) => x !== f.label)))}
          >
            {f.label}
          </Tag.CheckableTag>
        ))}
        {filter.length > 0 && (
          <Button type="link" size="small" onClick={() => setFilter([])}>
            Show all
          </Button>
        )}
      </fieldset>
      {query.isError ? (
        <LoadError what="the timeline" error={query.error} onRetry={() => query.refetch()} compact />
      ) : query.isPending ? (
        <Typography.Text type="secondary">Loading the timeline…</Typography.Text>
      ) : entries.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            filter.length ? "Nothing of these kinds yet" : "Nothing has happened with this client yet"
          }
        />
      ) : (
        <ol className="crm-timeline-list">
          {entries.map((entry) => (
            <TimelineItem key={entry.id} entry={entry} mine={entry.actor_id === userId} onDeleted={refresh} />
          ))}
        </ol>
      )}
      {query.hasNextPage && (
        <Button block onClick={() => query.fetchNextPage()} loading={query.isFetchingNextPage}>
          Show older
        </Button>
      )}
    </section>
  );
}

function TimelineItem({
  entry,
  mine,
  onDeleted,
}: {
  entry: TimelineEntry;
  mine: boolean;
  onDeleted: () => void;
}) {
  const { message } = App.useApp();
  // A note's title is its first line: the text says it all.
  const heading = entry.kind === "note" ? null : entry.title;
  // A detail the heading already says (an email's subject as its title) is not said twice.
  const details = Object.entries(DETAILS[entry.kind] ?? {}).filter(
    ([key]) => typeof entry.data[key] === "string" && entry.data[key] && entry.data[key] !== heading,
  );
  const incoming = entry.kind === "email_in" || entry.kind === "sms_in";
  return (
    <li className={`crm-timeline-item crm-kind-${entry.kind}`}>
      <span className="crm-timeline-icon" aria-hidden>
        {KIND_ICONS[entry.kind]}
      </span>
      <div className="crm-timeline-body">
        <div className="crm-timeline-head">
          {heading ? <Typography.Text strong>{heading}</Typography.Text> : <span />}
          <Space size={8} className="crm-timeline-meta">
            <Tag bordered={false} color={incoming ? "blue" : undefined}>
              {TIMELINE_KIND_LABELS[entry.kind]}
            </Tag>
            <Typography.Text type="secondary">
              <DateText value={entry.occurred_at} />
            </Typography.Text>
            {entry.kind === "note" && mine && (
              <Popconfirm
                title="Delete this note?"
                okText="Yes, delete"
                onConfirm={async () => {
                  try {
                    await deleteNote(entry.client_id, entry.id);
                    onDeleted();
                  } catch (error) {
                    message.error(getErrorMessage(error));
                  }
                }}
              >
                <Button type="text" size="small" icon={<DeleteOutlined />} aria-label="Delete note" />
              </Popconfirm>
            )}
          </Space>
        </div>
        {details.length > 0 && (
          <dl className="crm-timeline-details">
            {details.map(([key, label]) => (
              <div key={key}>
                <dt>{label}</dt>
                <dd>{key === "status" ? statusLabel(String(entry.data[key])) : String(entry.data[key])}</dd>
              </div>
            ))}
          </dl>
        )}
        {entry.body && entry.body !== heading && (
          <p className={`crm-timeline-text${heading ? "" : " crm-timeline-text-first"}`}>{entry.body}</p>
        )}
      </div>
    </li>
  );
}

function NoteComposer({ clientId, onAdded }: { clientId: string; onAdded: () => void }) {
  const { message } = App.useApp();
  const [text, setText] = useState("");
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (!text.trim() || saving) return;
    setSaving(true);
    try {
      await addNote(clientId, text.trim());
      setText("");
      onAdded();
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="crm-note-composer">
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="Write a note… (Ctrl+Enter to add)"
        aria-label="New note"
        autoSize={{ minRows: 2, maxRows: 8 }}
        maxLength={10000}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void save();
          }
        }}
      />
      <Button type="primary" onClick={save} loading={saving} disabled={!text.trim()}>
        Add note
      </Button>
    </div>
  );
}
