import { Show } from "@refinedev/antd";
import { useShow } from "@refinedev/core";
import { Card, Descriptions, Flex, Tag, Typography } from "antd";
import { MODULES } from "../../../resources/modules";
import { ROLE_LABELS, type UserRecord } from "../../../schemas/auth";
import { DateText } from "../../components/date-text";
import { DeviceTable } from "../../components/device-table";
import { RecordUnavailablePage } from "../../resources/record-not-found";
import { recordState } from "../../resources/show/record-state";
import { ResendInviteButton } from "./resend-invite-button";
import { ResetSecondFactorButton } from "./reset-second-factor-button";
import { UserChanges } from "./user-changes";

/** `/users/show/:id`: the user's details and devices. */
export default function UserShowPage() {
  // A failed read is shown in place (not found, or a load error with Retry), not as a toast.
  const { query, showId } = useShow<UserRecord>({ resource: "users", errorNotification: false });
  const user = query.data?.data;
  const granted = user ? MODULES.filter((m) => user.modules.includes(m.moduleID)) : [];
  const state = recordState(showId === undefined ? undefined : String(showId), query);

  if (state === "not-found" || state === "failed") {
    return (
      <RecordUnavailablePage
        title="User"
        place={{ singular: "User", listLabel: "Users", listPath: "/users" }}
        state={state}
        error={query.error}
        onRetry={() => query.refetch()}
      />
    );
  }

  return (
    <Flex vertical gap={24}>
      <Show
        title={user ? `${user.first_name} ${user.last_name}` : "User"}
        isLoading={query.isLoading}
        canDelete
        deleteButtonProps={{
          confirmTitle: user ? `Delete ${user.first_name} ${user.last_name}?` : "Delete this user?",
          confirmOkText: "Yes, delete",
          confirmCancelText: "Cancel",
        }}
        headerButtons={({ defaultButtons }) => (
          <>
            {user && <ResendInviteButton user={user} type="default" />}
            {user && <ResetSecondFactorButton user={user} />}
            {defaultButtons}
          </>
        )}
      >
        {user && (
          <Descriptions column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 2 }} bordered size="middle">
            <Descriptions.Item label="First name">{user.first_name}</Descriptions.Item>
            <Descriptions.Item label="Last name">{user.last_name}</Descriptions.Item>
            <Descriptions.Item label="Email">{user.email}</Descriptions.Item>
            <Descriptions.Item label="Role">
              <Tag color={user.role === 2 ? "geekblue" : "default"}>
                {ROLE_LABELS[user.role] ?? user.role}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label="Plan type">{user.plan_type}</Descriptions.Item>
            <Descriptions.Item label="Status">
              {user.active ? <Tag color="green">Active</Tag> : <Tag color="red">Disabled</Tag>}
              {user.invite_pending && <Tag color="gold">Invitation pending</Tag>}
            </Descriptions.Item>
            <Descriptions.Item label="Modules" span={2}>
              {granted.length ? (
                <Flex gap={4} wrap="wrap">
                  {granted.map((m) => (
                    <Tag key={m.moduleID}>{m.name}</Tag>
                  ))}
                </Flex>
              ) : (
                <Typography.Text type="secondary">No modules</Typography.Text>
              )}
            </Descriptions.Item>
            <Descriptions.Item label="Created">
              <DateText value={user.created_at} />
            </Descriptions.Item>
            <Descriptions.Item label="Last seen">
              <DateText value={user.last_seen_at} />
            </Descriptions.Item>
            <Descriptions.Item label="Two-step sign-in">
              {user.second_factor ? <Tag color="purple">On</Tag> : <Tag>Off</Tag>}
            </Descriptions.Item>
          </Descriptions>
        )}
      </Show>
      {user && (
        <Card title="Devices">
          <DeviceTable resource={`users/${user.id}/devices`} actionLabel="Sign out device" />
        </Card>
      )}
      {user && <UserChanges userId={user.id} name={`${user.first_name} ${user.last_name}`} />}
    </Flex>
  );
}
