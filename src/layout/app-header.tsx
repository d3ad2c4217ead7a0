import { DownOutlined, LaptopOutlined, LogoutOutlined, MenuOutlined, UserOutlined } from "@ant-design/icons";
import { useThemedLayoutContext } from "@refinedev/antd";
import { useGetIdentity, useLogout } from "@refinedev/core";
import { Avatar, Button, Dropdown, Flex, Grid, Layout, type MenuProps, Tag, Typography, theme } from "antd";
import { useNavigate } from "react-router";
import { type MeResponse, ROLE_LABELS, ROLES } from "../../schemas/auth";
import { Brand } from "../components/brand";
import { NotificationBell } from "./notification-bell";
import { SearchLauncher } from "./search-launcher";

/** "Admin" or "User", as the role select names them. */
export function roleLabelOf(me: Pick<MeResponse, "isadmin">): string {
  return ROLE_LABELS[me.isadmin ? ROLES.admin : ROLES.user];
}

const initialsOf = (me: MeResponse): string =>
  `${me.first_name.charAt(0)}${me.last_name.charAt(0)}`.toUpperCase() || "?";

/**
 * Top bar: the notification bell, the signed-in user's name and role, and the user menu
 * (My account, My devices, Sign out).
 */
export function AppHeader() {
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { data: me } = useGetIdentity<MeResponse>();
  const { mutate: logout } = useLogout();
  const { setMobileSiderOpen } = useThemedLayoutContext();
  // Same breakpoint as the sider's drawer mode.
  const isMobile = Grid.useBreakpoint().lg === false;

  const items: MenuProps["items"] = [
    { key: "account", icon: <UserOutlined />, label: "My account", onClick: () => navigate("/account") },
    {
      key: "devices",
      icon: <LaptopOutlined />,
      label: "My devices",
      onClick: () => navigate("/account/devices"),
    },
    { type: "divider" },
    { key: "sign-out", icon: <LogoutOutlined />, label: "Sign out", danger: true, onClick: () => logout() },
  ];

  return (
    <Layout.Header
      style={{
        position: "sticky",
        top: 0,
        zIndex: 10,
        display: "flex",
        alignItems: "center",
        justifyContent: isMobile ? "space-between" : "flex-end",
        paddingInline: isMobile ? 12 : 24,
        height: 64,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      {isMobile && (
        <Flex align="center" gap={8}>
          <Button
            type="text"
            icon={<MenuOutlined />}
            aria-label="Open menu"
            onClick={() => setMobileSiderOpen(true)}
          />
          <Brand size={28} compact />
        </Flex>
      )}
      {me && (
        <Flex align="center" gap={12}>
          <SearchLauncher compact={isMobile} />
          <NotificationBell />
          <Tag color={me.isadmin ? "geekblue" : "default"} style={{ marginInlineEnd: 0 }}>
            {roleLabelOf(me)}
          </Tag>
          <Dropdown menu={{ items }} trigger={["click"]} placement="bottomRight">
            <Button
              type="text"
              data-testid="user-menu"
              aria-label={isMobile ? `${me.first_name} ${me.last_name}` : undefined}
              style={{ height: 48, paddingInline: 8 }}
            >
              <Flex align="center" gap={8}>
                <Avatar style={{ backgroundColor: token.colorPrimary }} aria-hidden>
                  {initialsOf(me)}
                </Avatar>
                {!isMobile && (
                  <Typography.Text strong>
                    {me.first_name} {me.last_name}
                  </Typography.Text>
                )}
                <DownOutlined aria-hidden style={{ fontSize: 10, color: token.colorTextTertiary }} />
              </Flex>
            </Button>
          </Dropdown>
        </Flex>
      )}
    </Layout.Header>
  );
}
