import { useList } from "@refinedev/core";
import { Col, Flex, Row, Typography } from "antd";
import { useCallback, useEffect, useState } from "react";
import type { ResourceDefinition } from "../../../resources/contract";
import type { ModuleDefinition } from "../../../resources/modules";
import { LinkCard } from "../../components/link-card";
import { LoadError } from "../../components/load-error";
import { resourcesOfModule } from "../../layout/resources";
import { loadFailed } from "../../lib/load-failure";
import { resourceRoutes } from "../../resources/routes";

/** A card whose count failed: how to count again, and why it failed. */
interface CountFailure {
  retry: () => unknown;
  error: unknown;
}

type ReportFailure = (name: string, failure: CountFailure | null) => void;

/** One resource of the module: icon, label and how many records it holds. */
function ResourceCard({ def, report }: { def: ResourceDefinition; report: ReportFailure }) {
  const { result, query } = useList({
    resource: def.name,
    pagination: { currentPage: 1, pageSize: 1 },
    // One alert above the cards says it, not a toast per card.
    errorNotification: false,
  });
  const failed = loadFailed(query);
  const { refetch, error } = query;
  useEffect(
    () => report(def.name, failed ? { retry: refetch, error } : null),
    [report, def.name, failed, refetch, error],
  );

  let count = " ";
  if (query.isSuccess)
    count = `${result.total} ${result.total === 1 ? def.singular : def.label}`.toLowerCase();
  else if (failed) count = "Not counted";
  return <LinkCard to={resourceRoutes(def).list} icon={def.icon} title={def.label} text={count} />;
}

/**
 * `/<module key>` of a module made of resources: a card per resource. The cards still lead
 * to their lists when their counts could not be loaded; an alert says so, with Retry.
 */
export default function ModuleResourcesPage({ module }: { module: ModuleDefinition }) {
  const [failures, setFailures] = useState<Readonly<Record<string, CountFailure>>>({});
  const report = useCallback<ReportFailure>((name, failure) => {
    setFailures((current) => {
      if (!failure && !(name in current)) return current;
      const { [name]: _, ...rest } = current;
      return failure ? { ...rest, [name]: failure } : rest;
    });
  }, []);
  const failed = Object.values(failures);

  return (
    <Flex vertical gap={24}>
      <div>
        <Typography.Title level={2} style={{ marginBottom: 4 }}>
          {module.name}
        </Typography.Title>
        <Typography.Text type="secondary">{module.description}</Typography.Text>
      </div>
      {failed.length > 0 && (
        <LoadError
          compact
          what="record counts"
          error={failed[0].error}
          onRetry={() => Promise.all(failed.map((f) => f.retry()))}
        />
      )}
      <Row gutter={[16, 16]} role="list" aria-label={`${module.name} resources`}>
        {resourcesOfModule(module.key).map((def) => (
          <Col key={def.name} xs={24} sm={12} xl={8} role="listitem">
            <ResourceCard def={def} report={report} />
          </Col>
        ))}
      </Row>
    </Flex>
  );
}
