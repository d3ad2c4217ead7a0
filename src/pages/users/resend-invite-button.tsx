import { MailOutlined } from "@ant-design/icons";
import { useApiUrl, useCustomMutation } from "@refinedev/core";
import { Button, type ButtonProps, Popconfirm } from "antd";
import type { UserRecord } from "../../../schemas/auth";

/**
 * Sends a pending invitation again (`POST /api/users/{id}/invite`), after a confirm since the
 * previous link stops working. Shown only while the user has not set a password.
 */
export function ResendInviteButton({
  user,
  size,
  type = "link",
}: {
  user: UserRecord;
  size?: ButtonProps["size"];
  type?: ButtonProps["type"];
}) {
  const apiUrl = useApiUrl();
  const { mutate, mutation } = useCustomMutation<{ message: string }>();
  if (!user.invite_pending) return null;
  return (
    <Popconfirm
      title={`Send the invitation to ${user.email} again?`}
      description="The link in the earlier invitation stops working."
      okText="Send"
      cancelText="Cancel"
      onConfirm={() =>
        mutate({
          url: `${apiUrl}/users/${encodeURIComponent(user.id)}/invite`,
          method: "post",
          values: {},
          successNotification: (data) => ({
            type: "success",
            message: data?.data.message ?? "Invitation sent",
          }),
        })
      }
    >
      <Button
        type={type}
        size={size}
        icon={type === "link" ? undefined : <MailOutlined />}
        loading={mutation.isPending}
      >
        Resend invitation
      </Button>
    </Popconfirm>
  );
}
