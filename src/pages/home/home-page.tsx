import { useGetIdentity } from "@refinedev/core";
import { Card, Col, Empty, Flex, Row, Skeleton, Typography, theme } from "antd";
import { Link } from "react-router";
import { allows } from "../../../providers/access-control";
import { MODULES } from "../../../resources/modules";
import type { MeResponse } from "../../../schemas/auth";
import { ModuleIcon } from "../../components/module-icons";
import { accessMetaOf } from "../../layout/resources";

/** `/`: a welcome and one card per granted module. */
export default function HomePage() {
  const { token } = theme.useToken();
  const { data: me, isLoading } = useGetIdentity<MeResponse>();

  if (isLoading || !me) return <Skeleton active paragraph={{ rows: 6 }} />;

  const granted = MODULES.filter((m) => allows(me, accessMetaOf(m.key)));

  return (
    <Flex vertical gap={24}>
      <div>
        <Typography.Title level={2} style={{ marginBottom: 4 }}>
          Welcome, {me.first_name}
        </Typography.Title>
        <Typography.Text type="secondary">
          {granted.length
            ? "Pick up where you left off in one of your modules."
            : "Your account is ready, but no modules have been granted to it yet."}
        </Typography.Text>
      </div>

      {granted.length === 0 ? (
        <Card>
          <Empty description="You do not have access to any module yet. Ask an administrator to grant you one." />
        </Card>
      ) : (
        <Row gutter={[16, 16]} role="list" aria-label="Your modules">
          {granted.map((m) => (
            <Col key={m.key} xs={24} sm={12} xl={8} xxl={6} role="listitem">
              <Link to={`/${m.key}`} aria-label={m.name} style={{ display: "block", height: "100%" }}>
                <Card hoverable style={{ height: "100%" }}>
                  <Flex gap={16} align="flex-start">
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
                      <ModuleIcon name={m.icon} />
                    </Flex>
                    <div>
                      <Typography.Title level={5} style={{ margin: 0 }}>
                        {m.name}
                      </Typography.Title>
                      <Typography.Text type="secondary">{m.description}</Typography.Text>
                    </div>
                  </Flex>
                </Card>
              </Link>
            </Col>
          ))}
        </Row>
      )}
    </Flex>
  );
}
