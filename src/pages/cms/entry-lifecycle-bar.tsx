/**
 * An entry's life on its page: its status, Publish / Unpublish, and its versions (who saved
 * or published what, when), each comparable with the current draft and restorable.
 */
import { ClockCircleOutlined, HistoryOutlined } from "@ant-design/icons";
import { useInvalidate, useOne } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Drawer, Flex, List, Popconfirm, Space, Table, Tag, Typography } from "antd";
import { useRef, useState } from "react";
import type { ResourceDefinition } from "../../../resources/contract";
import { DateText } from "../../components/date-text";
import { useReturnFocusOnClose } from "../../hooks/use-focus-return";
import { getErrorMessage } from "../../lib/errors";
import { cmsKeys, diffVersions, listVersions, publishEntry, restoreVersion, unpublishEntry } from "./cms-api";
import { ScheduleDialog } from "./schedule-dialog";

const STATUS_COLOURS = { draft: "default", published: "green", unpublished: "orange" } as const;
const KIND_LABELS = { save: "Saved", publish: "Published", restore: "Restored" } as const;

const show = (value: unknown) =>
  value === null || value === undefined
    ? "—"
    : typeof value === "object"
      ? JSON.stringify(value)
      : String(value);

export function EntryLifecycleBar({ def, id }: { def: ResourceDefinition; id: string }) {
  const { message } = App.useApp();
  const type = def.name.replace(/^entries\//, "");
  const invalidate = useInvalidate();
  const queryClient = useQueryClient();
  const { query } = useOne<Record<string, unknown>>({ resource: def.name, id, errorNotification: false });
  const entry = query.data?.data;
  const [busy, setBusy] = useState(false);
  const [history, setHistory] = useState(false);
  const [compare, setCompare] = useState<number | null>(null);
  const [scheduling, setScheduling] = useState(false);
  // After a confirm (restore, unpublish) focus goes back to its button, so Escape still closes the drawer.
  const returnFocus = useReturnFocusOnClose();
  // Unpublishing removes its own button: Publish takes the focus.
  const publishButton = useRef<HTMLButtonElement>(null);
  const unpublishFocus = useReturnFocusOnClose(() => publishButton.current);
  const versions = useQuery({
    queryKey: cmsKeys.versions(type, id),
    queryFn: () => listVersions(type, id),
    enabled: history,
  });
  const diff = useQuery({
    queryKey: [...cmsKeys.versions(type, id), "diff", compare],
    queryFn: () => diffVersions(type, id, compare ?? 1, "current"),
    enabled: compare !== null,
  });

  const refresh = async () => {
    await invalidate({ resource: def.name, invalidates: ["list", "detail"], id });
    await queryClient.invalidateQueries({ queryKey: cmsKeys.versions(type, id) });
  };
  const act = async (work: () => Promise<void>, done: string) => {
    setBusy(true);
    try {
      await work();
      await refresh();
      message.success(done);
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  if (!entry) return null;
  const status = entry.status as keyof typeof STATUS_COLOURS;
  return (
    <Card size="small" style={{ marginBottom: 16 }} data-testid="entry-lifecycle">
      <Flex align="center" justify="space-between" wrap gap={8}>
        <Space wrap>
          <Tag color={STATUS_COLOURS[status]} data-testid="entry-status">
            {status === "published" ? "Published" : status === "unpublished" ? "Unpublished" : "Draft"}
          </Tag>
          {status === "published" && entry.draft_changed === true && (
            <Typography.Text type="warning">The draft has changes that are not published yet</Typography.Text>
          )}
          {typeof entry.published_at === "string" && (
            <Typography.Text type="secondary">
              Last published <DateText value={entry.published_at} />
            </Typography.Text>
          )}
          {typeof entry.publish_at === "string" && (
            <Tag color="blue">
              Publishes <DateText value={entry.publish_at} />
            </Tag>
          )}
          {typeof entry.unpublish_at === "string" && (
            <Tag color="orange">
              Unpublishes <DateText value={entry.unpublish_at} />
            </Tag>
          )}
        </Space>
        <Space wrap>
          <Button icon={<HistoryOutlined aria-hidden />} onClick={() => setHistory(true)}>
            Versions
          </Button>
          <Button icon={<ClockCircleOutlined aria-hidden />} onClick={() => setScheduling(true)}>
            Schedule
          </Button>
          {status === "published" && (
            <Popconfirm
              title="Take this entry off the public API?"
              okText="Yes, unpublish"
              {...unpublishFocus}
              onConfirm={() => act(() => unpublishEntry(type, id), "Entry unpublished")}
            >
              <Button loading={busy}>Unpublish</Button>
            </Popconfirm>
          )}
          <Button
            ref={publishButton}
            type="primary"
            loading={busy}
            disabled={status === "published" && entry.draft_changed !== true}
            onClick={() => act(() => publishEntry(type, id), "Entry published")}
          >
            {status === "published" ? "Publish changes" : "Publish"}
          </Button>
        </Space>
      </Flex>
      <ScheduleDialog
        open={scheduling}
        type={type}
        id={id}
        publishAt={(entry.publish_at as string | null) ?? null}
        unpublishAt={(entry.unpublish_at as string | null) ?? null}
        onClose={() => setScheduling(false)}
        onDone={async () => {
          setScheduling(false);
          await refresh();
        }}
      />
      <Drawer title="Versions" open={history} onClose={() => setHistory(false)} width={560}>
        <List
          rowKey="number"
          loading={versions.isLoading}
          dataSource={versions.data ?? []}
          locale={{ emptyText: "No versions yet" }}
          renderItem={(v) => (
            <List.Item
              actions={[
                <Button key="compare" size="small" onClick={() => setCompare(v.number)}>
                  Compare
                </Button>,
                <Popconfirm
                  key="restore"
                  title={`Make version ${v.number} the draft?`}
                  okText="Yes, restore"
                  {...returnFocus}
                  onConfirm={() =>
                    act(() => restoreVersion(type, id, v.number), `Version ${v.number} restored to the draft`)
                  }
                >
                  <Button size="small">Restore</Button>
                </Popconfirm>,
              ]}
            >
              <List.Item.Meta
                title={`Version ${v.number} · ${KIND_LABELS[v.kind]}`}
                description={
                  <>
                    {v.author ?? "A removed user"} · <DateText value={v.createdAt} />
                  </>
                }
              />
            </List.Item>
          )}
        />
        {compare !== null && (
          <Card
            size="small"
            title={`Version ${compare} compared with the current draft`}
            style={{ marginTop: 16 }}
          >
            <Table
              size="small"
              rowKey="field"
              loading={diff.isLoading}
              pagination={false}
              dataSource={diff.data ?? []}
              locale={{ emptyText: "No differences" }}
              columns={[
                {
                  title: "Field",
                  dataIndex: "field",
                  render: (f: string) => String(def.schema.properties[f]?.title ?? f),
                },
                { title: `Version ${compare}`, dataIndex: "before", render: show },
                { title: "Current draft", dataIndex: "after", render: show },
              ]}
            />
          </Card>
        )}
      </Drawer>
    </Card>
  );
}
