import { useList } from "@refinedev/core";
import { Col, Flex, Row, Typography } from "antd";
import type { ResourceDefinition } from "../../../resources/contract";
import type { ModuleDefinition } from "../../../resources/modules";
import { LinkCard } from "../../components/link-card";
import { resourcesOfModule } from "../../layout/resources";
import { resourceRoutes } from "../../resources/routes";

/** One resource of the module: icon, label and how many records it holds. */
function ResourceCard({ def }: { def: ResourceDefinition }) {
  const { result, query } = useList({ resource: def.name, pagination: { currentPage: 1, pageSize: 1 } });
  const count = query.isSuccess
    ? `${result.total} ${result.total === 1 ? def.singular : def.label}`.toLowerCase()
    : " ";
  return <LinkCard to={resourceRoutes(def).list} icon={def.icon} title={def.label} text={count} />;
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
