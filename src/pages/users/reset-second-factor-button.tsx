import { SafetyCertificateOutlined } from "@ant-design/icons";
import { useApiUrl, useCustomMutation, useGetIdentity, useInvalidate } from "@refinedev/core";
import { Button, Popconfirm } from "antd";
import type { MeResponse, UserRecord } from "../../../schemas/auth";

/**
 * Resets a user's second factor (`DELETE /api/users/{id}/second-factor`), after a confirm: for a
 * lost phone. The user signs in with the password alone, or sets up an app again at sign-in
 * when the policy requires one. Security-logged. Shown only while the user has one, and not on
 * the admin's own page (the server refuses that: their own is turned off in My account, with a code).
 */
export function ResetSecondFactorButton({ user }: { user: UserRecord }) {
  const apiUrl = useApiUrl();
  const invalidate = useInvalidate();
  const { mutate, mutation } = useCustomMutation();
  const { data: me } = useGetIdentity<MeResponse>();
  if (!user.second_factor || !me || me.userID === user.id) return null;
  return (
    <Popconfirm
      title={`Reset two-step sign-in of ${user.first_name} ${user.last_name}?`}
      description="Their authenticator app and recovery codes stop working. Do this only if you are sure who asked."
      okText="Yes, reset"
      okButtonProps={{ danger: true }}
      cancelText="Cancel"
      onConfirm={() =>
        mutate(
          {
            url: `${apiUrl}/users/${encodeURIComponent(user.id)}/second-factor`,
            method: "delete",
            values: {},
            successNotification: { type: "success", message: "Two-step sign-in reset" },
          },
          {
            onSuccess: () =>
              void invalidate({ resource: "users", id: user.id, invalidates: ["detail", "list"] }),
          },
        )
      }
    >
      <Button icon={<SafetyCertificateOutlined />} loading={mutation.isPending}>
        Reset two-step sign-in
      </Button>
    </Popconfirm>
  );
}
