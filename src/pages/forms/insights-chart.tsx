/**
 * The Insights tab's chart, a chunk of its own (the tab loads it lazily): views per day as
 * bars and submissions as a line, over the analytics screen's chart, with its legend.
 */
import { Flex, theme } from "antd";
import { DailyChart, LegendTag } from "../analytics/daily-chart";
import type { DayStats } from "./insights-logic";

export default function InsightsChart({ days }: { days: readonly DayStats[] }) {
  const { token } = theme.useToken();
  return (
    <Flex vertical gap={12}>
      <Flex gap={12} justify="flex-end">
        <LegendTag colour={token.colorPrimary}>Views</LegendTag>
        <LegendTag colour={token.colorWarning}>Submissions</LegendTag>
      </Flex>
      <DailyChart
        bars={days.map((d) => ({ day: d.day, count: d.views }))}
        line={days.map((d) => ({ day: d.day, count: d.submissions }))}
        barLabel="Views"
        lineLabel="Submissions"
      />
    </Flex>
  );
}
