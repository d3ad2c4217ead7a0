import { Show } from "@refinedev/antd";
import { useShow } from "@refinedev/core";
import { Descriptions } from "antd";
import { useParams } from "react-router";
import { detailFields } from "../columns";
import { FieldValue } from "../field-value";
import { fieldKind, fieldTitle } from "../fields";
import { RecordNotFound } from "../record-not-found";
import type { ResourceRecord, ScreenProps } from "../types";

/** Wide values take the whole row. */
const FULL_ROW = new Set(["multiline", "media", "urls"]);

/**
 * `/<module>/<name>/show/:id`: every field of the record (audit fields included),
 * relations linked to their records, with Edit and Delete.
 */
export default function ResourceShowPage({ def }: ScreenProps) {
  const { id } = useParams();
  const { query } = useShow<ResourceRecord>({ resource: def.name, id });
  const record = query.data?.data;
  const label = record?.[def.schema["x-label"]];
  const singular = def.singular.toLowerCase();

  return (
    <Show
      resource={def.name}
      recordItemId={id}
      title={typeof label === "string" && label ? label : def.singular}
      isLoading={query.isLoading}
      canEdit
      canDelete
      deleteButtonProps={{
        confirmTitle: `Delete this ${singular}?`,
        confirmOkText: "Yes, delete",
        successNotification: { type: "success", message: `${def.singular} deleted` },
      }}
    >
      {query.isError && <RecordNotFound def={def} status={query.error?.statusCode} />}
      {record && (
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
      )}
    </Show>
  );
}
