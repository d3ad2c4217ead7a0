/**
 * The Insights tab's funnel: over a date range and for one source or all, how many viewed the
 * form, started it, reached each page and completed it, with the drop-off between each step
 * and the next (funnel-chart.tsx, loaded lazily).
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Card, DatePicker, Empty, Flex, Select, Skeleton } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { Suspense, useState } from "react";
import { lazyScreen } from "../../components/lazy-screen";
import { LoadError } from "../../components/load-error";
import { loadFailed } from "../../lib/load-failure";
import { getFunnel } from "./partials-api";

const FunnelChart = lazyScreen(() => import("./funnel-chart"));
const ALL = "\u0000all";

export function FunnelCard({ formId }: { formId: string }) {
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(29, "day"), dayjs()]);
  const [source, setSource] = useState<string>(ALL);
  const from = range[0].format("YYYY-MM-DD");
  const to = range[1].format("YYYY-MM-DD");
  const funnel = useQuery({
    queryKey: ["forms", "funnel", formId, from, to, source],
    queryFn: () => getFunnel(formId, from, to, source === ALL ? null : source),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
  const sources = funnel.data?.sources ?? [];
  const steps = funnel.data?.steps ?? [];
  const quiet = steps.every((s) => s.count === 0);
  return (
    <Card
      title="Funnel"
      extra={
        <Flex gap={8} wrap>
          <Select
            aria-label="Source"
            value={source}
            onChange={setSource}
            style={{ minWidth: 160 }}
            options={[
              { value: ALL, label: "All sources" },
              ...sources.map((s) => ({ value: s.source, label: s.source || "(none)" })),
              ...(source !== ALL && !sources.some((s) => s.source === source)
                ? [{ value: source, label: source || "(none)" }]
                : []),
            ]}
          />
          <DatePicker.RangePicker
            aria-label="Dates"
            value={range}
            allowClear={false}
            format="DD-MM-YYYY"
            disabledDate={(d) => d.isAfter(dayjs(), "day")}
            onChange={(next) => next?.[0] && next[1] && setRange([next[0], next[1]])}
          />
        </Flex>
      }
    >
      {loadFailed(funnel) ? (
        <LoadError what="funnel" error={funnel.error} onRetry={() => funnel.refetch()} compact />
      ) : funnel.isLoading ? (
        <Skeleton active paragraph={{ rows: 5 }} />
      ) : quiet ? (
        <Empty description="No visits in these days — pick other dates or another source" />
      ) : (
        <div style={{ opacity: funnel.isPlaceholderData ? 0.6 : 1 }} aria-busy={funnel.isFetching}>
          <Suspense fallback={<Skeleton active paragraph={{ rows: 5 }} />}>
            <FunnelChart steps={steps} />
          </Suspense>
        </div>
      )}
    </Card>
  );
}
