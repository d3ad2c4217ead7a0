/**
 * A form's Insights tab: over the last 7, 30 or 90 days, how many opened the public form, how
 * many answered and the conversion between the two, per day (a chart, loaded lazily) and by
 * utm_source, and the funnel (views, starts, each page reached, completions, with drop-offs).
 * Lazy-loaded by the form's page.
 */
import { EyeOutlined, RiseOutlined, SendOutlined } from "@ant-design/icons";
import { useOne } from "@refinedev/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import {
  Card,
  Col,
  Empty,
  Flex,
  Progress,
  Row,
  Segmented,
  Skeleton,
  Statistic,
  Table,
  Typography,
} from "antd";
import dayjs from "dayjs";
import { type ReactNode, Suspense, useMemo, useState } from "react";
import { readTimeoutMs } from "../../../providers/data-provider";
import { createServiceClient } from "../../../providers/http";
import { lazyScreen } from "../../components/lazy-screen";
import { LoadError } from "../../components/load-error";
import { loadFailed } from "../../lib/load-failure";
import { type FormRecord, publicFormUrl } from "./forms-api";
import { FunnelCard } from "./funnel-card";
import {
  completeDays,
  type FormStats,
  formatRate,
  isQuiet,
  type SourceRow,
  STAT_PERIODS,
  type StatPeriod,
  sourceRows,
  statTotals,
} from "./insights-logic";

const client = createServiceClient("forms");

async function getStats(formId: string, days: StatPeriod): Promise<FormStats> {
  const path = `/forms/${encodeURIComponent(formId)}/stats`;
  return (await client.get<FormStats>(path, { params: { days }, timeout: readTimeoutMs() })).data;
}

const InsightsChart = lazyScreen(() => import("./insights-chart"));

/** The public address to share, once the form is published. */
function ShareHint({ formId }: { formId: string }) {
  const { query } = useOne<FormRecord>({ resource: "forms", id: formId, errorNotification: false });
  const form = query.data?.data;
  if (form?.status !== "published") return null;
  const url = publicFormUrl(form.slug);
  return (
    <Typography.Paragraph
      copyable={{ text: url, tooltips: ["Copy the link", "Copied"] }}
      style={{ margin: 0 }}
    >
      <Typography.Link href={url} target="_blank" rel="noopener noreferrer">
        {url}
      </Typography.Link>
    </Typography.Paragraph>
  );
}

function SourcesTable({ rows }: { rows: SourceRow[] }) {
  return (
    <Table<SourceRow>
      size="small"
      rowKey="source"
      dataSource={rows}
      pagination={rows.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
      locale={{ emptyText: <Empty description="No sources in this period" /> }}
      columns={[
        {
          title: "Source (utm_source)",
          dataIndex: "label",
          render: (label: string, row) =>
            row.source ? label : <Typography.Text type="secondary">{label}</Typography.Text>,
        },
        { title: "Views", dataIndex: "views", width: 110, align: "right" },
        { title: "Submissions", dataIndex: "submissions", width: 130, align: "right" },
        {
          title: "Conversion",
          dataIndex: "conversion",
          width: 220,
          render: (rate: number | null) => (
            <Flex align="center" gap={12}>
              <Progress
                percent={rate === null ? 0 : Math.min(100, rate * 100)}
                showInfo={false}
                size="small"
                style={{ flex: 1, margin: 0 }}
                aria-hidden
              />
              <span style={{ width: 56, textAlign: "right", fontVariantNumeric: "tabular-nums" }}>
                {formatRate(rate)}
              </span>
            </Flex>
          ),
        },
      ]}
    />
  );
}

export function FormInsights({ formId }: { formId: string }) {
  const [period, setPeriod] = useState<StatPeriod>(30);
  const stats = useQuery({
    queryKey: ["forms", "stats", formId, period],
    queryFn: () => getStats(formId, period),
    // The figures of the last period stay while another loads, so the screen does not jump.
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
  const days = useMemo(
    () => completeDays(stats.data?.days ?? [], period, dayjs().format("YYYY-MM-DD")),
    [stats.data, period],
  );
  const totals = statTotals(days);
  const sources = useMemo(() => sourceRows(stats.data?.sources ?? []), [stats.data]);

  const header = (
    <Flex justify="space-between" align="center" gap={12} wrap>
      <Typography.Text type="secondary">
        Opened and answered on the public form, by day and by where visitors came from.
      </Typography.Text>
      <Segmented<StatPeriod>
        aria-label="Period"
        value={period}
        onChange={setPeriod}
        options={STAT_PERIODS.map((d) => ({ value: d, label: `Last ${d} days` }))}
      />
    </Flex>
  );

  let body: ReactNode;
  if (loadFailed(stats))
    body = <LoadError what="insights" error={stats.error} onRetry={() => stats.refetch()} compact />;
  else if (stats.isLoading) body = <Skeleton active paragraph={{ rows: 8 }} />;
  else if (isQuiet(totals))
    body = (
      <Card>
        <Empty description={`No views in the last ${period} days — share the form to get some`}>
          <ShareHint formId={formId} />
        </Empty>
      </Card>
    );
  else
    body = (
      <>
        <Row gutter={[16, 16]}>
          <Col xs={24} md={8}>
            <Card>
              <Statistic title="Views" value={totals.views} prefix={<EyeOutlined aria-hidden />} />
            </Card>
          </Col>
          <Col xs={24} md={8}>
            <Card>
              <Statistic
                title="Submissions"
                value={totals.submissions}
                prefix={<SendOutlined aria-hidden />}
              />
            </Card>
          </Col>
          <Col xs={24} md={8}>
            <Card>
              <Statistic
                title="Conversion (submissions per view)"
                value={formatRate(totals.conversion)}
                prefix={<RiseOutlined aria-hidden />}
              />
            </Card>
          </Col>
        </Row>
        <Card title="Views and submissions per day">
          <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
            <InsightsChart days={days} />
          </Suspense>
        </Card>
        <FunnelCard formId={formId} />
        <Card title="By source">
          <SourcesTable rows={sources} />
        </Card>
      </>
    );

  return (
    <Flex vertical gap={16}>
      {header}
      {/* The last period's figures, dimmed, while the new one loads. */}
      <Flex
        vertical
        gap={16}
        style={{ opacity: stats.isPlaceholderData ? 0.6 : 1 }}
        aria-busy={stats.isFetching}
      >
        {body}
      </Flex>
    </Flex>
  );
}

export default FormInsights;
