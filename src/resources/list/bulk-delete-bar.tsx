import { DeleteOutlined } from "@ant-design/icons";
import { useDeleteMany } from "@refinedev/core";
import { Button, Flex, Popconfirm, Typography, theme } from "antd";
import { memo, type ReactNode, Suspense } from "react";
import type { ResourceDefinition } from "../../../resources/contract";
import { BULK_ACTIONS } from "../actions";

interface BulkDeleteBarProps {
  def: ResourceDefinition;
  ids: string[];
  onDone: () => void;
  /** More controls for the selection (select all matching, edit a field: src/resources/bulk). */
  extra?: ReactNode;
  /** Every record matching the filter is chosen (this many), not only these rows: no delete of them. */
  allMatching?: number;
}

/**
 * "N selected", Clear selection, the resource's bulk actions (`actions.bulk`), and Delete
 * selected behind "Delete N selected?".
 */
export const BulkDeleteBar = memo(function BulkDeleteBar({
  def,
  ids,
  onDone,
  extra,
  allMatching,
}: BulkDeleteBarProps) {
  const { token } = theme.useToken();
  const { mutate, mutation } = useDeleteMany();
  if (ids.length === 0) return null;
  const count = ids.length;
  const noun = (count === 1 ? def.singular : def.label).toLowerCase();

  return (
    <Flex
      align="center"
      gap={12}
      role="region"
      aria-label="Selection"
      style={{
        marginBottom: 12,
        padding: "8px 12px",
        borderRadius: token.borderRadius,
        background: token.colorPrimaryBg,
      }}
    >
      <Typography.Text strong>
        {allMatching === undefined
          ? `${count} selected`
          : `All ${allMatching.toLocaleString("en-IN")} ${def.label.toLowerCase()} matching the filter are selected`}
      </Typography.Text>
      <Button size="small" type="link" onClick={onDone}>
        Clear selection
      </Button>
      {(allMatching !== undefined ? [] : (def.actions?.bulk ?? [])).map((key) => {
        const Action = BULK_ACTIONS[key];
        return Action ? (
          <Suspense key={key} fallback={null}>
            <Action def={def} ids={ids} onDone={onDone} />
          </Suspense>
        ) : null;
      })}
      {extra}
      {allMatching === undefined && (
        <Popconfirm
          title={`Delete ${count} selected?`}
          description="This cannot be undone."
          okText="Yes, delete"
          okButtonProps={{ danger: true }}
          cancelText="Cancel"
          onConfirm={() =>
            mutate(
              {
                resource: def.name,
                dataProviderName: def.base,
                ids,
                successNotification: { type: "success", message: `${count} ${noun} deleted` },
              },
              { onSuccess: onDone },
            )
          }
        >
          <Button size="small" danger icon={<DeleteOutlined />} loading={mutation.isPending}>
            Delete selected
          </Button>
        </Popconfirm>
      )}
    </Flex>
  );
});
