/**
 * A sequence's enrolments: each client, where they are (step, next time, or held while the
 * sequence is paused), how they left, and Stop for those still in it; filtered by status and
 * searched by name or email, newest first, live as steps run.
 */
import { StopOutlined } from "@ant-design/icons";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { App, Button, Input, Popconfirm, Select, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import {
  ENROLMENT_STATUS_LABELS,
  ENROLMENT_STATUSES,
  type Enrolment,
  type EnrolmentStatus,
  EXIT_REASON_LABELS,
  type ExitReason,
} from "../../../../schemas/crm-sequence-steps";
import { DateText } from "../../../components/date-text";
import { LoadError } from "../../../components/load-error";
import { getErrorMessage } from "../../../lib/errors";
import { enrolmentPlace } from "./sequence-steps";
import { type EnrolmentQuery, getEnrolments, sequenceKeys, stopEnrolment } from "./sequences-api";

export const STATUS_COLORS: Readonly<Record<EnrolmentStatus, string>> = {
  active: "processing",
  finished: "success",
  exited: "warning",
  stopped: "default",
  failed: "error",
};

/** An enrolment's state in words: "Left early: Replied". */
export function EnrolmentStatusTag({ enrolment }: { enrolment: Enrolment }) {
  const reason = enrolment.exitReason
    ? (EXIT_REASON_LABELS[enrolment.exitReason as ExitReason] ?? enrolment.exitReason)
    : null;
  return (
    <Tag color={STATUS_COLORS[enrolment.status]} bordered={false}>
      {ENROLMENT_STATUS_LABELS[enrolment.status]}
      {reason ? `: ${reason}` : ""}
    </Tag>
  );
}

/** When the enrolment's next step runs: its time, "held", or nothing once it has ended. */
export function NextStep({ enrolment }: { enrolment: Enrolment }) {
  if (enrolment.held) return <Tag color="gold">Held: the sequence is paused</Tag>;
  if (enrolment.nextAt) return <DateText value={enrolment.nextAt} />;
  return enrolment.status === "active" ? <Typography.Text type="secondary">Now</Typography.Text> : null;
}

export function EnrolmentsTable({ sequenceId, onChanged }: { sequenceId: string; onChanged: () => void }) {
  const { message } = App.useApp();
  const [query, setQuery] = useState<EnrolmentQuery>({ page: 1, pageSize: 10 });
  const [search, setSearch] = useState("");
  const list = useQuery({
    queryKey: sequenceKeys.enrolments(sequenceId, query),
    queryFn: () => getEnrolments(sequenceId, query),
    placeholderData: keepPreviousData,
  });
  const stop = async (e: Enrolment) => {
    try {
      await stopEnrolment(sequenceId, e.id);
      message.success(`${e.clientName} was taken out of the sequence`);
      onChanged();
    } catch (error) {
      message.error(getErrorMessage(error));
    }
  };

  return (
    <section aria-label="Enrolments">
      <Space wrap className="seq-enrolment-filters">
        <Input.Search
          allowClear
          placeholder="Search by name or email"
          aria-label="Search enrolments"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onSearch={(q) => setQuery({ ...query, q, page: 1 })}
          style={{ width: 280 }}
        />
        <Select<EnrolmentStatus | undefined>
          allowClear
          placeholder="Any status"
          aria-label="Status"
          value={query.status}
          onChange={(status) => setQuery({ ...query, status, page: 1 })}
          options={ENROLMENT_STATUSES.map((s) => ({ value: s, label: ENROLMENT_STATUS_LABELS[s] }))}
          style={{ width: 180 }}
        />
      </Space>
      {list.isError ? (
        <LoadError what="the enrolments" error={list.error} onRetry={() => list.refetch()} />
      ) : (
        <Table<Enrolment>
          rowKey="id"
          size="middle"
          loading={list.isFetching && !list.data}
          dataSource={list.data?.data}
          locale={{
            emptyText: query.q || query.status ? "No enrolment matches" : "No client is enrolled yet",
          }}
          pagination={{
            current: query.page,
            pageSize: query.pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => (total === 1 ? "1 enrolment" : `${total} enrolments`),
            onChange: (page, pageSize) => setQuery({ ...query, page, pageSize }),
          }}
          columns={[
            {
              key: "client",
              title: "Client",
              render: (_, e) => (
                <Space direction="vertical" size={0}>
                  <Link to={`/crm/clients/show/${e.clientId}`}>{e.clientName}</Link>
                  {e.clientEmail && <Typography.Text type="secondary">{e.clientEmail}</Typography.Text>}
                </Space>
              ),
            },
            {
              key: "status",
              title: "Status",
              width: 200,
              render: (_, e) => <EnrolmentStatusTag enrolment={e} />,
            },
            { key: "step", title: "Step", render: (_, e) => enrolmentPlace(e) },
            { key: "next", title: "Next step", width: 200, render: (_, e) => <NextStep enrolment={e} /> },
            { key: "version", title: "Version", width: 90, dataIndex: "version" },
            {
              key: "started",
              title: "Enrolled",
              width: 160,
              render: (_, e) => <DateText value={e.startedAt} />,
            },
            {
              key: "actions",
              title: <span className="seq-sr-only">Actions</span>,
              width: 100,
              render: (_, e) =>
                e.status === "active" ? (
                  <Popconfirm
                    title={`Take ${e.clientName} out of this sequence?`}
                    description="Their next steps will not run."
                    okText="Stop"
                    okButtonProps={{ danger: true }}
                    cancelText="Keep"
                    onConfirm={() => stop(e)}
                  >
                    <Button size="small" danger icon={<StopOutlined />} aria-label={`Stop ${e.clientName}`}>
                      Stop
                    </Button>
                  </Popconfirm>
                ) : null,
            },
          ]}
        />
      )}
    </section>
  );
}
