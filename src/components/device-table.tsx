import {
  DesktopOutlined,
  MobileOutlined,
  SafetyCertificateOutlined,
  TabletOutlined,
} from "@ant-design/icons";
import { useDelete, useList } from "@refinedev/core";
import { Button, Empty, Popconfirm, Space, Table, Tag, Tooltip, Typography } from "antd";
import type { DeviceRecord } from "../../schemas/auth";
import { DateText } from "./date-text";

interface DeviceTableProps {
  /** The list path under /api: `users/me/devices` or `users/{id}/devices`. */
  resource: string;
  /** Label of the row action ('Sign out' on My devices, 'Sign out device' for an admin). */
  actionLabel: string;
  /** Called after a device was signed out (e.g. to end the session when it was this one). */
  onSignedOut?: (device: DeviceRecord) => void;
}

const MOBILE = new Set([
  "iPhone",
  "Android",
  "iPod",
  "BlackBerry",
  "Nokia",
  "Sony",
  "HTC",
  "LG",
  "Motorola",
  "Fire Phone",
]);
const TABLET = new Set(["iPad", "Kindle"]);

/** How the session's sign-in passed its second step, for the tag's tooltip. */
const SECOND_FACTOR_HOW: Record<NonNullable<DeviceRecord["secondFactor"]>, string> = {
  totp: "Signed in with a code from an authenticator app",
  recovery: "Signed in with a recovery code",
  enrolled: "Set up an authenticator app at sign-in",
};

function DeviceIcon({ device }: { device: string }) {
  if (TABLET.has(device)) return <TabletOutlined aria-hidden />;
  if (MOBILE.has(device)) return <MobileOutlined aria-hidden />;
  return <DesktopOutlined aria-hidden />;
}

/** Devices with their sessions, and a confirmed sign-out per device that holds one. */
export function DeviceTable({ resource, actionLabel, onSignedOut }: DeviceTableProps) {
  const { result, query } = useList<DeviceRecord>({ resource, pagination: { mode: "off" } });
  const { mutate: remove, mutation } = useDelete<DeviceRecord>();

  const signOut = (device: DeviceRecord) =>
    remove(
      {
        resource,
        id: device.deviceId,
        successNotification: { type: "success", message: `${device.deviceName} signed out` },
      },
      { onSuccess: () => onSignedOut?.(device) },
    );

  return (
    <Table<DeviceRecord>
      rowKey="deviceId"
      dataSource={result.data}
      loading={query.isLoading}
      pagination={false}
      scroll={{ x: 880 }}
      locale={{ emptyText: <Empty description="No devices have signed in yet" /> }}
    >
      <Table.Column<DeviceRecord>
        dataIndex="deviceName"
        title="Device name"
        minWidth={200}
        render={(name: string, device) => (
          <Space>
            <DeviceIcon device={device.device} />
            <Typography.Text>{name}</Typography.Text>
            {device.current && <Tag color="blue">This device</Tag>}
          </Space>
        )}
      />
      <Table.Column<DeviceRecord> dataIndex="browser" title="Browser" />
      <Table.Column<DeviceRecord> dataIndex="device" title="Device" />
      <Table.Column<DeviceRecord>
        dataIndex="ip"
        title="IP"
        render={(ip: string | null) => ip ?? <Typography.Text type="secondary">Unknown</Typography.Text>}
      />
      <Table.Column<DeviceRecord>
        dataIndex="lastSeenAt"
        title="Last seen"
        render={(value: string) => <DateText value={value} />}
      />
      <Table.Column<DeviceRecord>
        dataIndex="signedIn"
        title="Session"
        render={(signedIn: boolean) =>
          signedIn ? <Tag color="green">Signed in</Tag> : <Tag>Signed out</Tag>
        }
      />
      <Table.Column<DeviceRecord>
        dataIndex="secondFactor"
        title="Two-step"
        render={(how: DeviceRecord["secondFactor"], device) =>
          device.signedIn && how ? (
            <Tooltip title={SECOND_FACTOR_HOW[how]}>
              <Tag color="purple" icon={<SafetyCertificateOutlined aria-hidden />}>
                Verified
              </Tag>
            </Tooltip>
          ) : device.signedIn ? (
            <Typography.Text type="secondary" style={{ whiteSpace: "nowrap" }}>
              Password only
            </Typography.Text>
          ) : null
        }
      />
      <Table.Column<DeviceRecord>
        key="actions"
        title="Actions"
        render={(_, device) =>
          device.signedIn ? (
            <Popconfirm
              title={`Sign out ${device.deviceName}?`}
              description={
                device.current ? "This is the device you are using: you will be signed out here." : undefined
              }
              okText="Yes, sign out"
              okButtonProps={{ danger: true }}
              cancelText="Cancel"
              onConfirm={() => signOut(device)}
            >
              <Button
                danger
                size="small"
                loading={mutation.isPending && mutation.variables?.id === device.deviceId}
              >
                {actionLabel}
              </Button>
            </Popconfirm>
          ) : null
        }
      />
    </Table>
  );
}
