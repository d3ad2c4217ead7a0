import { Show } from "@refinedev/antd";
import { useShow } from "@refinedev/core";
import { Descriptions, Skeleton, Tabs } from "antd";
import { lazy, Suspense } from "react";
import { useParams, useSearchParams } from "react-router";
import { detailFields } from "../columns";
import { FieldValue } from "../field-value";
import { fieldKind, fieldTitle } from "../fields";
import { unavailableShowPage } from "../record-not-found";
import type { ResourceRecord, ScreenProps } from "../types";
import { withRuntimeDef } from "../with-runtime-def";
import { recordState } from "./record-state";

/** The History tab (issue 31), loaded when opened. */
const RecordHistory = lazy(() => import("./record-history"));

/** Wide values take the whole row. */
const FULL_ROW = new Set(["multiline", "richtext", "media", "assets", "urls"]);

/**
 * `/<module>/<name>/show/:id`: every field of the record (audit fields included),
 * relations linked to their records, with Edit and Delete. A record that is missing or
 * failed to load says so in place, with no Edit or Delete to press.
 */
function ResourceShowPage({ def }: ScreenProps) {
  const { id } = useParams();
  const [search, setSearch] = useSearchParams();
  const tab = search.get("tab") === "history" ? "history" : "details";
  // The failure is shown in place, so no toast repeats it.
  const { query } = useShow<ResourceRecord>({ resource: def.name, id, errorNotification: false });
  const record = query.data?.data;
  const label = record?.[def.schema["x-label"]];
  const singular = def.singular.toLowerCase();
  const state = recordState(id, query);

  const unavailable = unavailableShowPage(def, state, query);
  if (unavailable) return unavailable;

  return (
    <Show
      resource={def.name}
      recordItemId={id}
      title={typeof label === "string" && label ? label : def.singular}
      isLoading={state === "loading"}
      canEdit
      canDelete
      deleteButtonProps={{
        confirmTitle: `Delete this ${singular}?`,
        confirmOkText: "Yes, delete",
        successNotification: { type: "success", message: `${def.singular} deleted` },
      }}
    >
      {record && id && (
        <Tabs
          activeKey={tab}
          onChange={(key) => setSearch(key === "history" ? { tab: "history" } : {}, { replace: true })}
          items={[
            {
              key: "details",
              label: "Details",
              children: (
                <Descriptions column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 2 }} bordered size="middle">
                  {detailFields(def).map((field) => (
                    <Descriptions.Item
                      key={field}
                      label={fieldTitle(def.schema, field)}
                      span={FULL_ROW.has(fieldKind(def.schema, field)) ? "filled" : 1}
                    >
                      <FieldValue schema={def.schema} field={field} record={record} variant="detail" />
                    </Descriptions.Item>
                  ))}
                </Descriptions>
              ),
            },
            {
              key: "history",
              label: "History",
              children: (
                <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
                  <RecordHistory def={def} schema={def.schema} id={id} record={record} />
                </Suspense>
              ),
            },
          ]}
        />
      )}
    </Show>
  );
}

/** With its custom fields (runtime-def.tsx). */
export default withRuntimeDef(ResourceShowPage);
