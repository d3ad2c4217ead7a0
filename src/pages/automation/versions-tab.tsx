/**
 * An automation's published versions, newest first: which is live, when each was published and
 * by whom. Runs keep the version they started on, so a run's version (Runs tab) is one of these.
 */
import { useQuery } from "@tanstack/react-query";
import { Empty, Table, Tag } from "antd";
import type { VersionSummary } from "../../../schemas/versions";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import { automationKeys, getVersions } from "./automation-api";

export function VersionsTab({ id, live }: { id: string; live: number | null }) {
  const versions = useQuery({ queryKey: automationKeys.versions(id), queryFn: () => getVersions(id) });
  if (versions.isError && !versions.data)
    return <LoadError what="the versions" error={versions.error} onRetry={() => versions.refetch()} />;
  return (
    <Table<VersionSummary>
      rowKey="number"
      size="middle"
      loading={versions.isLoading}
      dataSource={versions.data}
      pagination={false}
      locale={{ emptyText: <Empty description="Not published yet: the builder's Publish makes version 1" /> }}
      columns={[
        {
          title: "Version",
          dataIndex: "number",
          width: 140,
          render: (n: number) => (
            <>
              {n} {n === live && <Tag color="green">Live</Tag>}
            </>
          ),
        },
        { title: "Published", dataIndex: "createdAt", render: (v: string) => <DateText value={v} /> },
        { title: "By", dataIndex: "author", render: (a: string | null) => a ?? "A removed user" },
      ]}
    />
  );
}
