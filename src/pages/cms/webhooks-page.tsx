/**
 * `/cms/webhooks`: where the CMS tells other systems that entries were published, unpublished
 * or deleted. A new hook's signing secret is shown once; each hook's delivery log says what
 * was sent, how many attempts it took and what the endpoint answered.
 */
import { PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Card,
  Checkbox,
  Drawer,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from "antd";
import { useState } from "react";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import { SecretOnceModal } from "../../components/secret-once-modal";
import { getErrorMessage } from "../../lib/errors";
import {
  type CmsWebhook,
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  updateWebhook,
  WEBHOOK_EVENTS,
} from "./cms-api";

const EVENT_LABELS: Record<(typeof WEBHOOK_EVENTS)[number], string> = {
  "entry.publish": "Entry published",
  "entry.unpublish": "Entry unpublished",
  "entry.delete": "Entry deleted",
};
const STATE_COLOURS = { pending: "gold", delivered: "green", failed: "red" } as const;
const KEY = ["cms", "webhooks"];

function Deliveries({ hook, onClose }: { hook: CmsWebhook | null; onClose: () => void }) {
  const deliveries = useQuery({
    queryKey: [...KEY, hook?.id, "deliveries"],
    queryFn: () => listDeliveries(hook?.id as string),
    enabled: Boolean(hook),
    refetchInterval: 5000,
  });
  return (
    <Drawer
      title={hook ? `Deliveries of ${hook.name}` : ""}
      open={Boolean(hook)}
      onClose={onClose}
      width={720}
    >
      {deliveries.isError ? (
        <LoadError what="deliveries" error={deliveries.error} onRetry={() => deliveries.refetch()} />
      ) : (
        <Table
          rowKey="id"
          size="small"
          loading={deliveries.isLoading}
          dataSource={deliveries.data ?? []}
          pagination={false}
          locale={{ emptyText: <Empty description="Nothing sent yet" /> }}
          columns={[
            {
              title: "Event",
              dataIndex: "event",
              render: (e: keyof typeof EVENT_LABELS) => EVENT_LABELS[e] ?? e,
            },
            {
              title: "State",
              dataIndex: "state",
              render: (s: keyof typeof STATE_COLOURS) => <Tag color={STATE_COLOURS[s]}>{s}</Tag>,
            },
            { title: "Attempts", dataIndex: "attempts", width: 90 },
            {
              title: "Answer",
              render: (_, d) => d.error ?? (d.responseStatus ? `HTTP ${d.responseStatus}` : "—"),
            },
            { title: "Sent", dataIndex: "createdAt", render: (v: string) => <DateText value={v} /> },
          ]}
        />
      )}
    </Drawer>
  );
}

export default function WebhooksPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const hooks = useQuery({ queryKey: KEY, queryFn: listWebhooks });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [log, setLog] = useState<CmsWebhook | null>(null);
  const [form] = Form.useForm<{ name: string; url: string; events: string[] }>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });

  const create = async (v: { name: string; url: string; events: string[] }) => {
    try {
      const made = await createWebhook(v);
      form.resetFields();
      setCreating(false);
      setSecret(made.secret);
      await refresh();
    } catch (error) {
      message.error(getErrorMessage(error));
    }
  };

  return (
    <Card
      title="Webhooks"
      extra={
        <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setCreating(true)}>
          New webhook
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        Each delivery is a signed POST: check the <Typography.Text code>X-Atelier-Signature</Typography.Text>{" "}
        header (HMAC-SHA256 of the timestamp and body with the hook's secret). Failed deliveries are tried
        again with growing waits.
      </Typography.Paragraph>
      {hooks.isError ? (
        <LoadError what="webhooks" error={hooks.error} onRetry={() => hooks.refetch()} />
      ) : (
        <Table<CmsWebhook>
          rowKey="id"
          loading={hooks.isLoading}
          dataSource={hooks.data ?? []}
          pagination={false}
          locale={{ emptyText: <Empty description="No webhooks yet" /> }}
          columns={[
            { title: "Name", dataIndex: "name" },
            {
              title: "URL",
              dataIndex: "url",
              render: (u: string) => (
                <Typography.Text ellipsis style={{ maxWidth: 320 }}>
                  {u}
                </Typography.Text>
              ),
            },
            {
              title: "Events",
              dataIndex: "events",
              render: (events: string[]) =>
                events.map((e) => <Tag key={e}>{EVENT_LABELS[e as keyof typeof EVENT_LABELS] ?? e}</Tag>),
            },
            {
              title: "Active",
              dataIndex: "active",
              width: 90,
              render: (active: boolean, hook) => (
                <Switch
                  checked={active}
                  aria-label={`${hook.name} active`}
                  onChange={async (next) => {
                    await updateWebhook(hook.id, { active: next }).catch((e) =>
                      message.error(getErrorMessage(e)),
                    );
                    await refresh();
                  }}
                />
              ),
            },
            {
              title: "Actions",
              width: 200,
              render: (_, hook) => (
                <Space>
                  <Button size="small" onClick={() => setLog(hook)}>
                    Deliveries
                  </Button>
                  <Popconfirm
                    title={`Delete ${hook.name} and its log?`}
                    okText="Yes, delete"
                    onConfirm={async () => {
                      await deleteWebhook(hook.id).catch((e) => message.error(getErrorMessage(e)));
                      await refresh();
                    }}
                  >
                    <Button size="small" danger>
                      Delete
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      )}
      <Modal
        title="New webhook"
        open={creating}
        onCancel={() => setCreating(false)}
        onOk={() => form.submit()}
        okText="Create"
        destroyOnHidden
      >
        <Form form={form} layout="vertical" initialValues={{ events: ["entry.publish"] }} onFinish={create}>
          <Form.Item
            name="name"
            label="Name"
            rules={[{ required: true, whitespace: true, message: "Give it a name" }]}
          >
            <Input autoFocus maxLength={120} />
          </Form.Item>
          <Form.Item
            name="url"
            label="URL"
            rules={[
              { required: true, type: "url", message: "Enter a full URL such as https://example.com/hook" },
            ]}
          >
            <Input maxLength={2000} placeholder="https://" />
          </Form.Item>
          <Form.Item
            name="events"
            label="Events"
            rules={[{ required: true, message: "Choose at least one event" }]}
          >
            <Checkbox.Group options={WEBHOOK_EVENTS.map((e) => ({ value: e, label: EVENT_LABELS[e] }))} />
          </Form.Item>
        </Form>
      </Modal>
      <SecretOnceModal title="Signing secret" secret={secret} onClose={() => setSecret(null)} />
      <Deliveries hook={log} onClose={() => setLog(null)} />
    </Card>
  );
}
