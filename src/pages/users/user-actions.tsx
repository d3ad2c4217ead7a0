import { useDelete, useGo, useUpdate } from "@refinedev/core";
import { Button, Popconfirm, Space } from "antd";
import type { UserRecord } from "../../../schemas/auth";
import { ResendInviteButton } from "./resend-invite-button";

/**
 * Row actions of the users table: Edit, Resend invitation (while pending), Disable (confirmed)
 * or Enable, Delete (confirmed). The user's name
 * links to the details. Own row: no Disable/Delete, so an admin cannot lock themselves out.
 */
export function UserActions({ user, isSelf }: { user: UserRecord; isSelf: boolean }) {
  const go = useGo();
  const { mutate: update, mutation: updating } = useUpdate<UserRecord>();
  const { mutate: remove, mutation: removing } = useDelete<UserRecord>();
  const name = `${user.first_name} ${user.last_name}`;

  const setActive = (active: boolean) =>
    update({
      resource: "users",
      id: user.id,
      values: { active },
      successNotification: { type: "success", message: active ? `${name} enabled` : `${name} disabled` },
    });

  return (
    <Space size={0} wrap>
      <Button
        type="link"
        size="small"
        onClick={() => go({ to: { resource: "users", action: "edit", id: user.id } })}
      >
        Edit
      </Button>
      <ResendInviteButton user={user} size="small" />
      {!isSelf && user.active && (
        <Popconfirm
          title={`Disable ${name}?`}
          description="They are signed out on every device and cannot sign in until enabled again."
          okText="Yes, disable"
          okButtonProps={{ danger: true }}
          cancelText="Cancel"
          onConfirm={() => setActive(false)}
        >
          <Button type="link" size="small" danger loading={updating.isPending}>
            Disable
          </Button>
        </Popconfirm>
      )}
      {!isSelf && !user.active && (
        <Button type="link" size="small" loading={updating.isPending} onClick={() => setActive(true)}>
          Enable
        </Button>
      )}
      {!isSelf && (
        <Popconfirm
          title={`Delete ${name}?`}
          description="The user and their sessions are removed. This cannot be undone."
          okText="Yes, delete"
          okButtonProps={{ danger: true }}
          cancelText="Cancel"
          onConfirm={() =>
            remove({
              resource: "users",
              id: user.id,
              successNotification: { type: "success", message: `${name} deleted` },
            })
          }
        >
          <Button type="link" size="small" danger loading={removing.isPending}>
            Delete
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}
