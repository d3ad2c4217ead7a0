/**
 * `/automation/automations/show/:id`, an automation's page: its name, state and failed runs,
 * with Run now, Pause/Resume and Edit; then its builder and its run history, each a tab kept in
 * the address. The canvas's code loads with this page only.
 */
import {
  EditOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  ThunderboltOutlined,
} from "@ant-design/icons";
import { useInvalidate, useShow, useSubscription, useUpdate } from "@refinedev/core";
import { useQueryClient } from "@tanstack/react-query";
import { App, Badge, Button, Space, Tabs, Tag, Typography } from "antd";
import { useState } from "react";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { getErrorMessage } from "../../lib/errors";
import { unavailableShowPage } from "../../resources/record-not-found";
import { recordState } from "../../resources/show/record-state";
import type { ResourceRecord, ScreenProps } from "../../resources/types";
import { automationKeys, runNow } from "./automation-api";
import { AutomationBuilder } from "./automation-builder";
import { RunsTab } from "./runs-tab";
import { VersionsTab } from "./versions-tab";
import "./automation.css";
import { recordPath } from "../../resources/routes";

const TABS = ["builder", "runs", "versions"] as const;
type Tab = (typeof TABS)[number];
const STATUS_COLORS: Readonly<Record<string, string>> = {
  draft: "default",
  active: "green",
  paused: "orange",
};

export default function AutomationPage({ def }: ScreenProps) {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const invalidate = useInvalidate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  // A failed run's notification links here with `?run=`: its run opens in the history.
  const linkedRun = params.get("run");
  const tab: Tab = TABS.find((t) => t === params.get("tab")) ?? (linkedRun ? "runs" : "builder");
  const { query } = useShow<ResourceRecord>({ resource: def.name, id, errorNotification: false });
  const { mutate: update, mutation } = useUpdate();
  const [running, setRunning] = useState(false);

  // A run that starts or ends elsewhere moves the failed count and the run list.
  useSubscription({
    channel: "resources/automations",
    types: ["updated"],
    onLiveEvent: (event) => {
      if (((event.payload as { ids?: string[] }).ids ?? []).includes(id))
        invalidate({ resource: def.name, invalidates: ["detail"], id });
    },
  });

  const record = query.data?.data;
  const unavailable = unavailableShowPage(def, recordState(id, query), query);
  if (unavailable) return unavailable;
  if (!record) return null;

  const status = String(record.status);
  const published = Boolean(record.published_version);
  const failed = Number(record.failed_runs ?? 0);
  const setStatus = (next: "active" | "paused") =>
    update(
      { resource: def.name, id, values: { status: next }, successNotification: false },
      {
        onSuccess: () =>
          message.success(
            next === "active" ? "Active: new events start runs" : "Paused: new events start no run",
          ),
      },
    );
  const run = async () => {
    setRunning(true);
    try {
      await runNow(id);
      message.success("Run started");
      await queryClient.invalidateQueries({ queryKey: automationKeys.runsOf(id) });
      setParams({ tab: "runs" });
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setRunning(false);
    }
  };

  return (
    <div className="af-page">
      <header className="af-header">
        <div>
          <Space size={12} align="center" wrap>
            <Typography.Title level={3} className="af-title">
              {String(record.name)}
            </Typography.Title>
            <Tag color={STATUS_COLORS[status]}>{status.charAt(0).toUpperCase() + status.slice(1)}</Tag>
            {published && <Tag>Version {String(record.published_version)}</Tag>}
          </Space>
          {record.description ? (
            <Typography.Paragraph type="secondary">{String(record.description)}</Typography.Paragraph>
          ) : null}
        </div>
        <Space wrap>
          <Button
            icon={<ThunderboltOutlined aria-hidden />}
            disabled={!published}
            loading={running}
            onClick={run}
            title={published ? undefined : "Publish first"}
          >
            Run now
          </Button>
          {published &&
            (status === "paused" ? (
              <Button
                icon={<PlayCircleOutlined aria-hidden />}
                loading={mutation.isPending}
                onClick={() => setStatus("active")}
              >
                Resume
              </Button>
            ) : (
              <Button
                icon={<PauseCircleOutlined aria-hidden />}
                loading={mutation.isPending}
                onClick={() => setStatus("paused")}
              >
                Pause
              </Button>
            ))}
          <Button icon={<EditOutlined aria-hidden />} onClick={() => navigate(recordPath(def, "edit", id))}>
            Edit
          </Button>
        </Space>
      </header>
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams({ tab: key })}
        destroyOnHidden
        items={[
          { key: "builder", label: "Builder", children: <AutomationBuilder id={id} /> },
          {
            key: "runs",
            label: (
              <Space size={6}>
                Runs
                {failed > 0 && <Badge count={failed} title={`${failed} failed`} />}
              </Space>
            ),
            children: <RunsTab id={id} initialRun={linkedRun} />,
          },
          {
            key: "versions",
            label: "Versions",
            children: <VersionsTab id={id} live={published ? Number(record.published_version) : null} />,
          },
        ]}
      />
    </div>
  );
}
