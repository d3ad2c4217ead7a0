/**
 * `/<module>/webhooks` (`/cms/webhooks`, `/forms/webhooks`): where a module tells other
 * systems what happened in it, over its own `/webhooks` routes and events
 * (webhook-modules.ts). A new hook's signing secret is shown once; each hook's delivery log
 * says what was sent, how many attempts it took and what the endpoint answered.
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
import { useMemo, useState } from "react";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import { SecretOnceModal } from "../../components/secret-once-modal";
import { getErrorMessage } from "../../lib/errors";
import { eventLabel, WEBHOOK_MODULES, type WebhookModule, type WebhookModuleKey } from "./webhook-modules";
import { type Webhook, type WebhookBody, type WebhooksApi, webhooksApi } from "./webhooks-api";

const STATE_COLOURS = { pending: "gold", delivered: "green", failed: "red" } as const;

function Deliveries({
  api,
  module,
  queryKey,
  hook,
  onClose,
}: {
  api: WebhooksApi;
  module: WebhookModule;
  queryKey: readonly unknown[];
  hook: Webhook | null;
  onClose: () => void;
}) {
  const deliveries = useQuery({
    queryKey: [...queryKey, hook?.id, "deliveries"],
    queryFn: () => api.deliveries(hook?.id as string),
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
            { title: "Event", dataIndex: "event", render: (e: string) => eventLabel(module, e) },
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

/** The webhooks of `module` (a key of WEBHOOK_MODULES). */
export default function WebhooksPage({ module: key }: { module: WebhookModuleKey }) {
  const module: WebhookModule = WEBHOOK_MODULES[key];
  const api = useMemo(() => webhooksApi(module.base), [module.base]);
  const queryKey = ["webhooks", module.base];
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const hooks = useQuery({ queryKey, queryFn: api.list });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [log, setLog] = useState<Webhook | null>(null);
  const [form] = Form.useForm<WebhookBody>();
  const refresh = () => queryClient.invalidateQueries({ queryKey });

  const create = async (v: WebhookBody) => {
    try {
      const made = await api.create(v);
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
        {module.purpose} Each delivery is a signed POST: check the{" "}
        <Typography.Text code>X-Atelier-Signature</Typography.Text> header (HMAC-SHA256 of the timestamp and
        body with the hook's secret). Failed deliveries are tried again with growing waits.
        {module.payload && (
          <>
            {" "}
            Its <Typography.Text code>data</Typography.Text> is{" "}
            <Typography.Text code style={{ whiteSpace: "nowrap" }}>
              {module.payload}
            </Typography.Text>
            .
          </>
        )}
      </Typography.Paragraph>
      {hooks.isError ? (
        <LoadError what="webhooks" error={hooks.error} onRetry={() => hooks.refetch()} />
      ) : (
        <Table<Webhook>
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
              render: (events: string[]) => events.map((e) => <Tag key={e}>{eventLabel(module, e)}</Tag>),
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
                    await api
                      .update(hook.id, { active: next })
                      .catch((e) => message.error(getErrorMessage(e)));
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
                      await api.remove(hook.id).catch((e) => message.error(getErrorMessage(e)));
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
        <Form
          form={form}
          layout="vertical"
          initialValues={{ events: module.events.slice(0, 1).map((e) => e.value) }}
          onFinish={create}
        >
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
            <Checkbox.Group options={[...module.events]} />
          </Form.Item>
        </Form>
      </Modal>
      <SecretOnceModal title="Signing secret" secret={secret} onClose={() => setSecret(null)} />
      <Deliveries api={api} module={module} queryKey={queryKey} hook={log} onClose={() => setLog(null)} />
    </Card>
  );
}
