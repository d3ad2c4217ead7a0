/**
 * `/crm`, the CRM module's page: a tab per entity (crm-tabs.ts), numbered from 1 and kept in the
 * address (`?tab=2`), tab 1 when none is given (spec §3 `entitiesSelectedTab`, default 1). Each
 * tab is the entity's generated list, embedded; Opportunities shows the pipeline board, or the
 * list (`?view=list`). Only the selected tab loads.
 */
import { AppstoreOutlined, PlusOutlined, UnorderedListOutlined } from "@ant-design/icons";
import { Button, Flex, Segmented, Tabs, Typography } from "antd";
import { lazy, Suspense, useMemo } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { canCreate, type ResourceDefinition } from "../../../resources/contract";
import { moduleByKey } from "../../../resources/modules";
import { PageLoader } from "../../components/page-loader";
import { resourcesOfModule } from "../../layout/resources";
import { recordPath, resourceRoutes } from "../../resources/routes";
import type { ListEmbedding } from "../../resources/types";
import { entityTabs, type OpportunityView, opportunityView, selectedEntityTab } from "./crm-tabs";

const ResourceListPage = lazy(() => import("../../resources/list/list-page"));
const PipelineBoard = lazy(() => import("./pipeline-board"));

/** An entity's generated list inside its tab; a record opens at its own page. */
function EntityList({ def }: { def: ResourceDefinition }) {
  const navigate = useNavigate();
  const embedding = useMemo<ListEmbedding>(
    () => ({ onOpen: (record) => navigate(recordPath(def, "show", record.id)) }),
    [def, navigate],
  );
  return <ResourceListPage key={def.name} def={def} embedded={embedding} />;
}

export default function CrmPage() {
  const module = moduleByKey("crm");
  const tabs = useMemo(() => entityTabs(resourcesOfModule("crm")), []);
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const selected = selectedEntityTab(params.get("tab"), tabs.length);
  const view = opportunityView(params.get("view"));
  const current = tabs[selected - 1]?.def;

  // A tab keeps only its own place in the address: the board's filters belong to the board.
  const choose = (tab: number, nextView: OpportunityView = view) => {
    const next = new URLSearchParams({ tab: String(tab) });
    if (tabs[tab - 1]?.def.name === "opportunities" && nextView === "list") next.set("view", "list");
    setParams(next);
  };

  const extra = current && (
    <Flex gap={8} align="center">
      {current.name === "opportunities" && (
        <Segmented<OpportunityView>
          aria-label="Show opportunities as"
          value={view}
          onChange={(v) => choose(selected, v)}
          options={[
            { value: "board", label: "Board", icon: <AppstoreOutlined aria-hidden /> },
            { value: "list", label: "List", icon: <UnorderedListOutlined aria-hidden /> },
          ]}
        />
      )}
      {canCreate(current) && (
        <Button
          type="primary"
          icon={<PlusOutlined aria-hidden />}
          onClick={() => navigate(resourceRoutes(current).create)}
        >
          Create {current.singular.toLowerCase()}
        </Button>
      )}
    </Flex>
  );

  return (
    <div className="crm-page">
      {/* The tabs say what the module holds: the board gets the height a description would take. */}
      {/* The tab's actions sit by the title, not in the tab bar: there they would be inside its
          tablist, where only tabs may be (axe's aria-required-children, issue 27). */}
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 8 }}>
        <Typography.Title level={2} style={{ margin: 0 }} title={module?.description}>
          {module?.name ?? "CRM"}
        </Typography.Title>
        {extra}
      </Flex>
      <Tabs
        activeKey={String(selected)}
        onChange={(key) => choose(Number(key))}
        destroyOnHidden
        items={tabs.map(({ number, def }) => ({
          key: String(number),
          label: def.label,
          children: number === selected && (
            <Suspense fallback={<PageLoader />}>
              {def.name === "opportunities" && view === "board" ? (
                <PipelineBoard />
              ) : (
                <EntityList def={def} />
              )}
            </Suspense>
          ),
        }))}
      />
    </div>
  );
}
