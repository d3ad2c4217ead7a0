import { SaveOutlined } from "@ant-design/icons";
import { Button, Flex } from "antd";
import { lazy, Suspense, useState } from "react";
import type { ResourceDefinition } from "../../../resources/contract";
import type { SavedView } from "../../../schemas/saved-views";
import { type ListControls, useListViews } from "./use-list-views";

// Loaded when needed, not with every list: the tabs once the person has a view, the naming
// dialog (a form) when opened.
const ViewBar = lazy(() => import("./view-bar"));
const ViewNameModal = lazy(async () => ({ default: (await import("./view-name-modal")).ViewNameModal }));

/**
 * Saved views above a list (issue 31): the person's default view applied when the list opens
 * plainly, "Save as view", and once there are views, their tabs and menu (view-bar.tsx).
 */
export function ViewTabs({ def, controls }: { def: ResourceDefinition; controls: ListControls }) {
  const views = useListViews(def, controls, true);
  const [naming, setNaming] = useState<{ view: SavedView | null } | null>(null);
  const onName = (view: SavedView | null) => setNaming({ view });

  return (
    <>
      {views.views.length ? (
        <Suspense fallback={<div style={{ height: 36, marginBottom: 12 }} />}>
          <ViewBar def={def} views={views} onName={onName} />
        </Suspense>
      ) : (
        <Flex justify="end" style={{ marginBottom: 12 }}>
          <Button size="small" icon={<SaveOutlined />} onClick={() => onName(null)}>
            Save as view
          </Button>
        </Flex>
      )}
      {naming && (
        <Suspense fallback={null}>
          <ViewNameModal
            def={def}
            view={naming.view}
            state={views.now}
            onClose={() => setNaming(null)}
            onSaved={async (saved, created) => {
              setNaming(null);
              await views.refresh();
              if (created) views.apply(saved);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
