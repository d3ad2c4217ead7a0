/**
 * A save refused because someone saved the record since this form opened (409): what they
 * changed beside what this form would write, field by field, then Reload theirs (this form's
 * changes dropped) or Overwrite with mine (sent again over their revision, knowingly).
 */
import { Button, Modal, Table, Typography } from "antd";
import type { ResourceDefinition } from "../../../resources/contract";
import { describeValue } from "../field-value";
import { type FormData, toUpdateBody } from "../form-schema";
import type { ResourceRecord } from "../types";

export interface Conflict {
  message: string;
  /** What this form holds. */
  mine: FormData;
  /** The record as stored now. */
  theirs: ResourceRecord;
}

export function ConflictDialog({
  def,
  conflict,
  onReload,
  onOverwrite,
  onCancel,
}: {
  def: ResourceDefinition;
  conflict: Conflict | null;
  onReload: () => void;
  onOverwrite: () => void;
  onCancel: () => void;
}) {
  const differences = conflict ? toUpdateBody(conflict.mine, conflict.theirs, def.schema) : {};
  const rows = Object.keys(differences).map((field) => ({
    field,
    title: def.schema.properties[field]?.title ?? field,
    theirs: describeValue(conflict?.theirs[field], def.schema.properties[field]),
    mine: describeValue(differences[field], def.schema.properties[field]),
  }));
  return (
    <Modal
      title="Changed by someone else"
      open={conflict !== null}
      onCancel={onCancel}
      okText="Reload theirs"
      onOk={onReload}
      footer={(_, { OkBtn, CancelBtn }) => (
        <>
          <CancelBtn />
          <Button danger onClick={onOverwrite}>
            Overwrite with mine
          </Button>
          <OkBtn />
        </>
      )}
      width={640}
    >
      <Typography.Paragraph>{conflict?.message}</Typography.Paragraph>
      <Table
        size="small"
        rowKey="field"
        pagination={false}
        dataSource={rows}
        locale={{ emptyText: "Your changes and theirs touch different fields" }}
        columns={[
          { title: "Field", dataIndex: "title" },
          { title: "Theirs (saved)", dataIndex: "theirs" },
          { title: "Yours", dataIndex: "mine" },
        ]}
      />
    </Modal>
  );
}
