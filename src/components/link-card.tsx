import { Card, Flex, Typography, theme } from "antd";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { ModuleIcon } from "./module-icons";

interface LinkCardProps {
  to: string;
  /** Icon name from module-icons. */
  icon: string;
  title: string;
  /** Secondary line under the title. */
  text: ReactNode;
}

/**
 * A hoverable card that links somewhere: a tinted icon tile, a title and a line of text.
 * The home page lists modules with it, a module page its resources.
 */
export function LinkCard({ to, icon, title, text }: LinkCardProps) {
  const { token } = theme.useToken();
  return (
    <Link to={to} aria-label={title} style={{ display: "block", height: "100%" }}>
      <Card hoverable style={{ height: "100%" }}>
        <Flex gap={16} align="center">
          <Flex
            align="center"
            justify="center"
            style={{
              flex: "none",
              width: 44,
              height: 44,
              borderRadius: 12,
              background: token.colorPrimaryBg,
              color: token.colorPrimary,
              fontSize: 22,
            }}
          >
            <ModuleIcon name={icon} />
          </Flex>
          <div>
            <Typography.Title level={5} style={{ margin: 0 }}>
              {title}
            </Typography.Title>
            <Typography.Text type="secondary">{text}</Typography.Text>
          </div>
        </Flex>
      </Card>
    </Link>
  );
}
