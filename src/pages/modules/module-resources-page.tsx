import { useList } from "@refinedev/core";
import { Card, Col, Flex, Row, Typography, theme } from "antd";
import { Link } from "react-router";
import type { ResourceDefinition } from "../../../resources/contract";
import type { ModuleDefinition } from "../../../resources/modules";
import { ModuleIcon } from "../../components/module-icons";
import { resourcesOfModule } from "../../layout/resources";
import { resourceRoutes } from "../../resources/routes";

/** One resource of the module: icon, label and how many records it holds. */
function ResourceCard({ def }: { def: ResourceDefinition }) {
  const { token } = theme.useToken();
  const { result, query } = useList({ resource: def.name, pagination: { currentPage: 1, pageSize: 1 } });
  const count = query.isSuccess
    ? `${result.total} ${result.total === 1 ? def.singular : def.label}`.toLowerCase()
    : " ";
  return (
    <Link to={resourceRoutes(def).list} aria-label={def.label} style={{ display: "block", height: "100%" }}>
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
            <ModuleIcon name={def.icon} />
          </Flex>
          <div>
            <Typography.Title level={5} style={{ margin: 0 }}>
              {def.label}
            </Typography.Title>
            <Typography.Text type="secondary">{count}</Typography.Text>
          </div>
        </Flex>
      </Card>
    </Link>
  );
}

/** `/<module key>` of a module made of resources: a card per resource. */
export default function ModuleResourcesPage({ module }: { module: ModuleDefinition }) {
  return (
    <Flex vertical gap={24}>
      <div>
        <Typography.Title level={2} style={{ marginBottom: 4 }}>
          {module.name}
        </Typography.Title>
        <Typography.Text type="secondary">{module.description}</Typography.Text>
      </div>
      <Row gutter={[16, 16]} role="list" aria-label={`${module.name} resources`}>
        {resourcesOfModule(module.key).map((def) => (
          <Col key={def.name} xs={24} sm={12} xl={8} role="listitem">
            <ResourceCard def={def} />
          </Col>
        ))}
      </Row>
    </Flex>
  );
}
