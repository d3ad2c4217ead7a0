/**
 * A domain's read-only API tokens, under its details: make one (shown once), see when each was
 * last used, revoke one (it stops working at once). A token-protected domain's delivery API
 * answers only requests carrying one (`Authorization: Bearer …`).
 */
import { KeyOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Empty, Form, Input, Modal, Popconfirm, Table, Tag, Typography } from "antd";
import { useRef, useState } from "react";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import { SecretOnceModal } from "../../components/secret-once-modal";
import { useReturnFocusOnClose } from "../../hooks/use-focus-return";
import { getErrorMessage } from "../../lib/errors";
import { type ApiToken, cmsKeys, createToken, listTokens, revokeToken } from "./cms-api";

export function DomainTokens({
  domainId,
  domainKey,
  access,
}: {
  domainId: string;
  domainKey?: string;
  access?: string;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const key = cmsKeys.tokens(domainId);
  const tokens = useQuery({ queryKey: key, queryFn: () => listTokens(domainId) });
  const [creating, setCreating] = useState(false);
  const [saving, setSaving] = useState(false);
  const [shown, setShown] = useState<string | null>(null);
  // A revoked token's Revoke button goes: focus goes to New token, not the page body.
  const newTokenButton = useRef<HTMLButtonElement>(null);
  const revokeFocus = useReturnFocusOnClose(() => newTokenButton.current);
  const [form] = Form.useForm<{ name: string }>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const create = async ({ name }: { name: string }) => {
    setSaving(true);
    try {
      const made = await createToken(domainId, name.trim());
      setCreating(false);
      form.resetFields();
      setShown(made.token);
      await refresh();
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setSaving(false);
    }
  };
  const revoke = async (token: ApiToken) => {
    try {
      await revokeToken(domainId, token.id);
      message.success(`${token.name} revoked`);
      await refresh();
    } catch (error) {
      message.error(getErrorMessage(error));
    }
  };

  return (
    <Card
      title="API tokens"
      style={{ marginTop: 24 }}
      extra={
        <Button ref={newTokenButton} icon={<PlusOutlined aria-hidden />} onClick={() => setCreating(true)}>
          New token
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        {access === "token"
          ? "This domain's delivery API answers only requests that carry one of these tokens, as "
          : "This domain is public; a token is needed only once its access is set to token. Send it as "}
        <Typography.Text code>Authorization: Bearer …</Typography.Text>
        {domainKey ? (
          <>
            {" "}
            to <Typography.Text code>/public-cms/{domainKey}/…</Typography.Text>
          </>
        ) : null}
        . Tokens read published content only.
      </Typography.Paragraph>
      {tokens.isError ? (
        <LoadError what="tokens" error={tokens.error} onRetry={() => tokens.refetch()} />
      ) : (
        <Table<ApiToken>
          rowKey="id"
          size="middle"
          loading={tokens.isLoading}
          dataSource={tokens.data ?? []}
          pagination={false}
          locale={{
            emptyText: <Empty image={<KeyOutlined style={{ fontSize: 32 }} />} description="No tokens yet" />,
          }}
          columns={[
            { title: "Name", dataIndex: "name" },
            {
              title: "Token",
              dataIndex: "prefix",
              render: (prefix: string) => <Typography.Text code>{prefix}…</Typography.Text>,
            },
            {
              title: "Last used",
              dataIndex: "lastUsedAt",
              render: (v: string | null) =>
                v ? <DateText value={v} /> : <Typography.Text type="secondary">Never</Typography.Text>,
            },
            { title: "Created", dataIndex: "createdAt", render: (v: string) => <DateText value={v} /> },
            {
              title: "Actions",
              width: 140,
              render: (_, token) =>
                token.revokedAt ? (
                  <Tag>Revoked</Tag>
                ) : (
                  <Popconfirm
                    title={`Revoke ${token.name}?`}
                    description="Sites using it lose access at once."
                    okText="Yes, revoke"
                    okButtonProps={{ danger: true }}
                    {...revokeFocus}
                    onConfirm={() => revoke(token)}
                  >
                    <Button size="small" danger>
                      Revoke
                    </Button>
                  </Popconfirm>
                ),
            },
          ]}
        />
      )}
      <Modal
        title="New API token"
        open={creating}
        onCancel={() => setCreating(false)}
        onOk={() => form.submit()}
        okText="Create"
        confirmLoading={saving}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={create}>
          <Form.Item
            name="name"
            label="Name"
            extra="Say where it is used, such as “Shop front-end”."
            rules={[{ required: true, whitespace: true, message: "Give the token a name" }]}
          >
            <Input autoFocus maxLength={120} />
          </Form.Item>
        </Form>
      </Modal>
      <SecretOnceModal title="API token" secret={shown} onClose={() => setShown(null)} />
    </Card>
  );
}
