import { Card, Typography } from "antd";
import { forceLogout } from "../../../providers/http";
import { DeviceTable } from "../../components/device-table";

/** `/account/devices`: the signed-in user's devices. Signing out this device ends the session. */
export default function MyDevicesPage() {
  return (
    <Card title="My devices">
      <Typography.Paragraph type="secondary">
        Devices that have signed in to your account. Sign out any you do not recognise.
      </Typography.Paragraph>
      <DeviceTable
        resource="users/me/devices"
        actionLabel="Sign out"
        onSignedOut={(device) => {
          if (device.current) forceLogout();
        }}
      />
    </Card>
  );
}
