import { Flex, Typography, theme } from "antd";
import { type ReactNode, useEffect } from "react";
import { APP_NAME } from "../theme";
import { Brand } from "./brand";

/** The corner of the app's cards (src/theme.ts `Card.borderRadiusLG`). */
const CARD_RADIUS = 12;

interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}

/**
 * The centred card shared by the sign-in, forgot-password and reset-password screens. Drawn
 * by hand, not with antd's Card: Card brings Tabs, Menu and Skeleton along, a quarter of what
 * /manage/login would otherwise download (issue 13's 200 KB first load).
 */
export function AuthLayout({ title, subtitle, children }: AuthLayoutProps) {
  const { token } = theme.useToken();
  useEffect(() => {
    document.title = `${title} | ${APP_NAME}`;
  }, [title]);

  return (
    <Flex
      component="main"
      vertical
      align="center"
      justify="center"
      gap={24}
      style={{
        minHeight: "100vh",
        padding: "32px 16px",
        background: "radial-gradient(circle at 15% 10%, #e0e7ff 0, transparent 45%), #f4f5fb",
      }}
    >
      <Brand size={44} />
      <section
        style={{
          width: "100%",
          maxWidth: 420,
          padding: token.paddingLG,
          background: token.colorBgContainer,
          border: `${token.lineWidth}px solid ${token.colorBorderSecondary}`,
          borderRadius: CARD_RADIUS,
          boxShadow: "0 12px 32px rgba(30, 27, 75, 0.08)",
        }}
      >
        <Typography.Title level={3} style={{ marginTop: 0, marginBottom: subtitle ? 4 : 24 }}>
          {title}
        </Typography.Title>
        {subtitle && (
          <Typography.Paragraph type="secondary" style={{ marginBottom: 24 }}>
            {subtitle}
          </Typography.Paragraph>
        )}
        {children}
      </section>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        © {new Date().getFullYear()} {APP_NAME}
      </Typography.Text>
    </Flex>
  );
}
