import { EyeOutlined, SearchOutlined, TeamOutlined } from "@ant-design/icons";
import { useList } from "@refinedev/core";
import { useQuery } from "@tanstack/react-query";
import {
  Card,
  Col,
  DatePicker,
  Empty,
  Flex,
  Row,
  Select,
  Skeleton,
  Statistic,
  Table,
  Typography,
  theme,
} from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { readTimeoutMs } from "../../../providers/data-provider";
import { http } from "../../../providers/http";
import type { AnalyticsPoint, SearchedWord } from "../../../schemas/pdf-library";
import { LoadError } from "../../components/load-error";
import { loadFailed } from "../../lib/load-failure";
import { dailySeries, sum, totalsByPdf } from "./analytics-logic";
import { DailyChart, LegendTag } from "./daily-chart";

interface Range {
  pdfId?: string;
  from: string;
  to: string;
}

const fetchList = async <T,>(path: string, range: Range): Promise<T[]> =>
  (await http.post<{ data: T[] }>(path, range, { timeout: readTimeoutMs() })).data.data;

/**
 * The three analytics lists. Spec §8 swallows an analytics call's failure (an empty list);
 * but when all three fail nothing was loaded, and zeros would read as "nobody looked", so
 * that is a load error (offline, server down) shown with Retry.
 */
async function fetchAnalytics(range: Range) {
  const [views, visitors, words] = await Promise.allSettled([
    fetchList<AnalyticsPoint>("/api/analytics/views", range),
    fetchList<AnalyticsPoint>("/api/analytics/visitors", range),
    fetchList<SearchedWord>("/api/analytics/words", range),
  ]);
  if (views.status === "rejected" && visitors.status === "rejected" && words.status === "rejected") {
    throw views.reason;
  }
  const value = <T,>(result: PromiseSettledResult<T[]>): T[] =>
    result.status === "fulfilled" ? result.value : [];
  return { views: value(views), visitors: value(visitors), words: value(words) };
}

const fmt = (d: Dayjs) => d.format("YYYY-MM-DD");

/**
 * `/analytics`: views, visitors and searched words of the published catalogues, per day
 * and per catalogue, over a date range (default the last 30 days), for one or all PDFs.
 */
export default function AnalyticsPage() {
  const { token } = theme.useToken();
  const [dates, setDates] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(29, "day"), dayjs()]);
  const [pdfId, setPdfId] = useState<string | undefined>();
  const range: Range = { pdfId, from: fmt(dates[0]), to: fmt(dates[1]) };
  const { result: pdfs } = useList<{ id: string; name: string }>({
    resource: "pdfs",
    pagination: { pageSize: 200 },
    sorters: [{ field: "name", order: "asc" }],
    // Only the catalogue picker's options: without them, "All catalogues" still works.
    errorNotification: false,
  });
  const data = useQuery({
    queryKey: ["analytics", range],
    queryFn: () => fetchAnalytics(range),
  });
  const views = data.data?.views ?? [];
  const visitors = data.data?.visitors ?? [];
  const words = data.data?.words ?? [];
  const perPdf = totalsByPdf(views, visitors);

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          Analytics
        </Typography.Title>
        <Flex gap={8} wrap>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder="All catalogues"
            aria-label="Catalogue"
            style={{ width: 240 }}
            value={pdfId}
            onChange={setPdfId}
            options={(pdfs?.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
          <DatePicker.RangePicker
            aria-label="Date range"
            allowClear={false}
            value={dates}
            disabledDate={(d) => d.isAfter(dayjs(), "day")}
            onChange={(v) => v?.[0] && v[1] && setDates([v[0], v[1]])}
            presets={[
              { label: "Last 7 days", value: [dayjs().subtract(6, "day"), dayjs()] },
              { label: "Last 30 days", value: [dayjs().subtract(29, "day"), dayjs()] },
              { label: "Last 90 days", value: [dayjs().subtract(89, "day"), dayjs()] },
            ]}
          />
        </Flex>
      </Flex>
      {loadFailed(data) ? (
        <LoadError what="analytics" error={data.error} onRetry={() => data.refetch()} />
      ) : data.isLoading ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <>
          <Row gutter={[16, 16]}>
            <Col xs={24} md={8}>
              <Card>
                <Statistic title="Views" value={sum(views)} prefix={<EyeOutlined />} />
              </Card>
            </Col>
            <Col xs={24} md={8}>
              <Card>
                <Statistic
                  title="Visitors (unique per day)"
                  value={sum(visitors)}
                  prefix={<TeamOutlined />}
                />
              </Card>
            </Col>
            <Col xs={24} md={8}>
              <Card>
                <Statistic title="Searches" value={sum(words)} prefix={<SearchOutlined />} />
              </Card>
            </Col>
          </Row>
          <Card
            title="Views and visitors per day"
            extra={
              <Flex gap={12}>
                <LegendTag colour={token.colorPrimary}>Views</LegendTag>
                <LegendTag colour={token.colorWarning}>Visitors</LegendTag>
              </Flex>
            }
          >
            <DailyChart
              bars={dailySeries(range.from, range.to, views)}
              line={dailySeries(range.from, range.to, visitors)}
              barLabel="Views"
              lineLabel="Visitors"
            />
          </Card>
          <Row gutter={[16, 16]}>
            <Col xs={24} lg={14}>
              <Card title="Per catalogue">
                <Table
                  size="small"
                  rowKey="pdfId"
                  dataSource={perPdf}
                  pagination={false}
                  locale={{ emptyText: <Empty description="No views in this period" /> }}
                  columns={[
                    { title: "Catalogue", dataIndex: "pdfName" },
                    { title: "Views", dataIndex: "views", width: 100, align: "right" },
                    { title: "Visitors", dataIndex: "visitors", width: 100, align: "right" },
                  ]}
                />
              </Card>
            </Col>
            <Col xs={24} lg={10}>
              <Card title="Searched words">
                <Table
                  size="small"
                  rowKey="word"
                  dataSource={words}
                  pagination={{ pageSize: 10, hideOnSinglePage: true }}
                  locale={{ emptyText: <Empty description="Nobody searched in this period" /> }}
                  columns={[
                    { title: "Word", dataIndex: "word" },
                    { title: "Searches", dataIndex: "count", width: 100, align: "right" },
                  ]}
                />
              </Card>
            </Col>
          </Row>
        </>
      )}
    </Flex>
  );
}
