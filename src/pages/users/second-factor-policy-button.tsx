/**
 * The admin setting "Require two-step sign-in: nobody / admins / everyone"
 * (`GET`/`PUT /api/second-factor/policy`), in a dialog from the users list. A required user
 * without an authenticator app sets one up at their next sign-in.
 */
import { SafetyCertificateOutlined } from "@ant-design/icons";
import { useApiUrl, useCustom, useCustomMutation } from "@refinedev/core";
import { Alert, Button, Modal, Radio, Space, Typography } from "antd";
import { useEffect, useState } from "react";
import {
  SECOND_FACTOR_POLICIES,
  SECOND_FACTOR_POLICY_LABELS,
  type SecondFactorPolicy,
} from "../../../schemas/second-factor";

export function SecondFactorPolicyButton() {
  const apiUrl = useApiUrl();
  const [open, setOpen] = useState(false);
  const { query } = useCustom<{ required: SecondFactorPolicy }>({
    url: `${apiUrl}/second-factor/policy`,
    method: "get",
    queryOptions: { enabled: open },
    errorNotification: false,
  });
  const saved = query.data?.data.required;
  const [choice, setChoice] = useState<SecondFactorPolicy | undefined>(saved);
  useEffect(() => setChoice(saved), [saved]);
  const { mutate, mutation } = useCustomMutation<{ required: SecondFactorPolicy }>();

  const save = () =>
    choice &&
    mutate(
      {
        url: `${apiUrl}/second-factor/policy`,
        method: "put",
        values: { required: choice },
        successNotification: { type: "success", message: "Two-step sign-in requirement saved" },
      },
      {
        onSuccess: () => {
          void query.refetch();
          setOpen(false);
        },
      },
    );

  return (
    <>
      <Button icon={<SafetyCertificateOutlined />} onClick={() => setOpen(true)}>
        Two-step sign-in
      </Button>
      <Modal
        title="Require two-step sign-in"
        open={open}
        onCancel={() => setOpen(false)}
        onOk={save}
        okText="Save"
        okButtonProps={{ disabled: !choice || choice === saved, loading: mutation.isPending }}
        cancelText="Cancel"
      >
        <Typography.Paragraph type="secondary">
          Who must sign in with a code from an authenticator app after their password. Those required who have
          none set one up at their next sign-in, before they get in. Users already signed in stay signed in.
        </Typography.Paragraph>
        {query.isError && (
          <Alert
            type="error"
            showIcon
            message="The current setting could not be loaded."
            style={{ marginBottom: 12 }}
          />
        )}
        <Radio.Group
          value={choice}
          onChange={(e) => setChoice(e.target.value)}
          disabled={query.isLoading}
          aria-label="Require two-step sign-in for"
        >
          <Space direction="vertical">
            {SECOND_FACTOR_POLICIES.map((p) => (
              <Radio key={p} value={p}>
                {SECOND_FACTOR_POLICY_LABELS[p]}
              </Radio>
            ))}
          </Space>
        </Radio.Group>
      </Modal>
    </>
  );
}
