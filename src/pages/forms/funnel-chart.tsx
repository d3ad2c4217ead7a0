/**
 * The funnel as bars, a chunk of its own (the Insights tab loads it lazily): one bar a step
 * (viewed, started, each page reached, completed), as wide as its share of the views, and
 * between two steps how many left there. Plain HTML bars: read at a glance, by a screen reader
 * as a list.
 */
import { ArrowDownOutlined } from "@ant-design/icons";
import { Flex, Typography, theme } from "antd";
import { formatRate } from "./insights-logic";
import type { FunnelStep } from "./partials-api";

export default function FunnelChart({ steps }: { steps: readonly FunnelStep[] }) {
  const { token } = theme.useToken();
  const top = Math.max(1, ...steps.map((s) => s.count));
  return (
    <ol className="fi-funnel" aria-label="Funnel" data-testid="funnel-chart">
      {steps.map((step, i) => (
        <li key={step.key} data-step={step.key}>
          {i > 0 && step.dropOff !== null && (
            <Flex align="center" gap={6} className="fi-drop">
              <ArrowDownOutlined aria-hidden />
              <Typography.Text type={step.dropOff > 0 ? "danger" : "secondary"}>
                {step.dropOff > 0
                  ? `${step.dropOff.toLocaleString("en-IN")} left here${step.dropOffRate === null ? "" : ` (${formatRate(step.dropOffRate)})`}`
                  : "No one left here"}
              </Typography.Text>
            </Flex>
          )}
          <Flex align="center" gap={12}>
            <Typography.Text className="fi-label" ellipsis={{ tooltip: step.label }}>
              {step.label}
            </Typography.Text>
            <div className="fi-track">
              <div
                className="fi-bar"
                style={{
                  width: `${Math.max(step.count ? 1 : 0, (step.count / top) * 100)}%`,
                  background: step.key === "completions" ? token.colorSuccess : token.colorPrimary,
                }}
              />
            </div>
            <Typography.Text strong className="fi-count">
              {step.count.toLocaleString("en-IN")}
            </Typography.Text>
          </Flex>
        </li>
      ))}
    </ol>
  );
}
