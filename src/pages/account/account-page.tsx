import { CalendarOutlined, LaptopOutlined } from "@ant-design/icons";
import { useCan, useGetIdentity } from "@refinedev/core";
import { Button, Card, Descriptions, Flex, Skeleton, Tag, Typography } from "antd";
import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";
import type { MeResponse } from "../../../schemas/auth";
import { roleLabelOf } from "../../layout/app-header";
import { ChangePasswordForm } from "./change-password-form";
import { NotificationMailSettings } from "./notification-mail-settings";
import { SecondFactorCard } from "./second-factor-card";

/**
 * `/account`: who I am, changing my own password, two-step sign-in, and which notifications
 * come by mail.
 * Reached from the header's user menu (and `#notifications` from the bell's panel).
 */
export default function AccountPage() {
  const { data: me, isLoading } = useGetIdentity<MeResponse>();
  const navigate = useNavigate();
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === "#notifications") document.getElementById("notifications")?.scrollIntoView();
  }, [hash]);
  // The calendar connection is the CRM's (meetings with clients): offered to those who have it.
  const { data: calendar } = useCan({ resource: "crm-calendar", action: "list" });

  return (
    <Flex vertical gap={24} style={{ maxWidth: 880 }}>
      <Card
        title="My account"
        extra={
          <Button icon={<LaptopOutlined />} onClick={() => navigate("/account/devices")}>
            My devices
          </Button>
        }
      >
        {isLoading || !me ? (
          <Skeleton active paragraph={{ rows: 2 }} />
        ) : (
          <Descriptions column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 2 }} bordered size="middle">
            <Descriptions.Item label="Name">
              {me.first_name} {me.last_name}
            </Descriptions.Item>
            <Descriptions.Item label="Email">{me.email}</Descriptions.Item>
            <Descriptions.Item label="Role">
              <Tag color={me.isadmin ? "geekblue" : "default"}>{roleLabelOf(me)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="Plan type">{me.plan_type}</Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      {calendar?.can && (
        <Card title="Calendar">
          <Flex justify="space-between" align="center" gap={16} wrap>
            <Typography.Text type="secondary">
              Your own calendar, where the meetings you book with clients go.
            </Typography.Text>
            <Button icon={<CalendarOutlined />} onClick={() => navigate("/crm/calendar")}>
              Calendar connection
            </Button>
          </Flex>
        </Card>
      )}
      <Card title="Change password">
        <Typography.Paragraph type="secondary">
          Enter your current password, then the new one twice. Signing out your other devices is a good idea
          if you think someone else knows your password.
        </Typography.Paragraph>
        <ChangePasswordForm />
      </Card>
      <SecondFactorCard />
      <Card title="Notifications by mail" id="notifications">
        <NotificationMailSettings />
      </Card>
    </Flex>
  );
}
