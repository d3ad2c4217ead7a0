import { useGetIdentity } from "@refinedev/core";
import { Card, Col, Empty, Flex, Row, Skeleton, Typography } from "antd";
import { allows } from "../../../providers/access-control";
import { MODULES } from "../../../resources/modules";
import type { MeResponse } from "../../../schemas/auth";
import { LinkCard } from "../../components/link-card";
import { LoadError } from "../../components/load-error";
import { accessMetaOf } from "../../layout/resources";
import { loadFailed } from "../../lib/load-failure";

/** `/`: a welcome and one card per granted module. */
export default function HomePage() {
  const identity = useGetIdentity<MeResponse>();
  const me = identity.data;

  if (!me && loadFailed(identity)) {
    return <LoadError what="your modules" error={identity.error} onRetry={() => identity.refetch()} />;
  }
  if (!me) return <Skeleton active paragraph={{ rows: 6 }} />;

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
              <LinkCard to={`/${m.key}`} icon={m.icon} title={m.name} text={m.description} />
            </Col>
          ))}
        </Row>
      )}
    </Flex>
  );
}
