/**
 * `/crm/sequences/show/:id`, a sequence's page (spec §3 `selectedSequenceData`): its name and
 * state with Pause/Resume, Edit and Enrol clients; its figures (enrolled, active, replied,
 * finished, opted out, …); then its steps in the builder and its enrolments, each a tab kept in
 * the address. Figures and enrolments follow the steps as they run (live).
 */
import { EditOutlined, PauseCircleOutlined, PlayCircleOutlined, UserAddOutlined } from "@ant-design/icons";
import { useInvalidate, useShow, useSubscription, useUpdate } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Space, Tabs, Tag, Typography } from "antd";
import { useState } from "react";
import { useNavigate, useParams, useSearchParams } from "react-router";
import type { SequenceStats } from "../../../../schemas/crm-sequence-steps";
import { unavailableShowPage } from "../../../resources/record-not-found";
import { recordState } from "../../../resources/show/record-state";
import type { ResourceRecord, ScreenProps } from "../../../resources/types";
import { EnrolClientsDialog } from "./enrol-dialogs";
import { EnrolmentsTable } from "./enrolments-table";
import { SequenceBuilder } from "./sequence-builder";
import { getStats, sequenceKeys } from "./sequences-api";
import "./sequences.css";
import { recordPath } from "../../../resources/routes";

const TABS = ["steps", "enrolments"] as const;
type Tab = (typeof TABS)[number];

const FIGURES: ReadonlyArray<{ key: keyof SequenceStats; label: string; hint: string }> = [
  { key: "enrolled", label: "Enrolled", hint: "Every enrolment, ended or not" },
  { key: "active", label: "Active", hint: "Still in the sequence" },
  { key: "replied", label: "Replied", hint: "Left when they answered" },
  { key: "finished", label: "Finished", hint: "Went through every step" },
  { key: "optedOut", label: "Opted out", hint: "Texted STOP or withdrew consent" },
  { key: "won", label: "Won", hint: "Left when an opportunity was won" },
  { key: "lost", label: "Lost", hint: "Left when an opportunity was lost" },
  { key: "stopped", label: "Stopped", hint: "Taken out by hand" },
  { key: "failed", label: "Failed", hint: "A step could not run" },
];

function Figures({ stats }: { stats: SequenceStats | undefined }) {
  return (
    <dl className="seq-figures" aria-label="Figures">
      {FIGURES.map((f) => (
        <div key={f.key} className="seq-figure" title={f.hint}>
          <dt>{f.label}</dt>
          <dd>{stats ? stats[f.key].toLocaleString("en-IN") : "…"}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function SequencePage({ def }: ScreenProps) {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  const [params, setParams] = useSearchParams();
  const tab: Tab = TABS.find((t) => t === params.get("tab")) ?? "steps";
  const [enrolling, setEnrolling] = useState(false);
  const { query } = useShow<ResourceRecord>({ resource: def.name, id, errorNotification: false });
  const { mutate: update, mutation } = useUpdate();
  const stats = useQuery({
    queryKey: sequenceKeys.stats(id),
    queryFn: () => getStats(id),
    enabled: Boolean(id),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["crm", "sequences", id] });

  // Steps that run (anyone's enrolment, a reply that ends one) move the figures and the table.
  useSubscription({
    channel: "resources/sequence-enrolments",
    types: ["updated"],
    onLiveEvent: (event) => {
      if (((event.payload as { ids?: string[] }).ids ?? []).includes(id)) refresh();
    },
  });

  const record = query.data?.data;
  const state = recordState(id, query);
  const unavailable = unavailableShowPage(def, state, query);
  if (unavailable) return unavailable;
  if (!record) return <Card loading />;

  const name = String(record.name);
  const paused = record.status === "paused";
  const setStatus = (status: "active" | "paused") =>
    update(
      {
        resource: def.name,
        dataProviderName: def.base,
        id,
        values: { status },
        successNotification: {
          type: "success",
          message: status === "paused" ? `${name} is paused` : `${name} is active again`,
        },
      },
      { onSuccess: refresh },
    );

  return (
    <div className="seq-page">
      <header className="seq-header">
        <div>
          <Space align="center" wrap>
            <Typography.Title level={3} className="seq-title">
              {name}
            </Typography.Title>
            <Tag color={paused ? "gold" : "green"}>{paused ? "Paused" : "Active"}</Tag>
          </Space>
          {record.description ? (
            <Typography.Paragraph type="secondary" className="seq-description">
              {String(record.description)}
            </Typography.Paragraph>
          ) : null}
          {paused && (
            <Typography.Paragraph type="warning" className="seq-description">
              Paused: every enrolment waits at its next email, SMS or task until the sequence is active again.
            </Typography.Paragraph>
          )}
        </div>
        <Space wrap aria-label="Actions">
          <Button
            icon={paused ? <PlayCircleOutlined /> : <PauseCircleOutlined />}
            loading={mutation.isPending}
            onClick={() => setStatus(paused ? "active" : "paused")}
          >
            {paused ? "Resume" : "Pause"}
          </Button>
          <Button icon={<EditOutlined />} onClick={() => navigate(recordPath(def, "edit", id))}>
            Edit
          </Button>
          <Button type="primary" icon={<UserAddOutlined />} onClick={() => setEnrolling(true)}>
            Enrol clients
          </Button>
        </Space>
      </header>
      <Figures stats={stats.data} />
      <Card size="small" className="seq-tabs-card">
        <Tabs
          activeKey={tab}
          onChange={(key) => setParams((p) => ({ ...Object.fromEntries(p), tab: key }), { replace: true })}
          items={[
            {
              key: "steps",
              label: `Steps (${Number(record.step_count ?? 0)})`,
              children: (
                <SequenceBuilder
                  sequenceId={id}
                  onSaved={() => invalidate({ resource: def.name, invalidates: ["detail", "list"], id })}
                />
              ),
            },
            {
              key: "enrolments",
              label: `Enrolments (${stats.data?.enrolled ?? 0})`,
              children: <EnrolmentsTable sequenceId={id} onChanged={refresh} />,
            },
          ]}
        />
      </Card>
      <EnrolClientsDialog
        open={enrolling}
        onClose={() => setEnrolling(false)}
        sequence={{ id, name, paused }}
      />
    </div>
  );
}
