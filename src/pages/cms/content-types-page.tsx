/**
 * `/cms/content-types`: the content-type builder. Collections, singles and components on the
 * left; the chosen type's fields on the right, added, changed, reordered and removed as a
 * draft of the type, saved in one go. Saving asks before it deletes stored values and says
 * why a change is refused; renaming a field keeps its values.
 */
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Col, Empty, Flex, Menu, Row, Space, Tag, Typography } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import type { ContentTypeKind } from "../../../schemas/cms-fields";
import { LoadError } from "../../components/load-error";
import { PageLoader } from "../../components/page-loader";
import { focusFirst } from "../../hooks/use-focus-return";
import { useUnsavedWarning } from "../../hooks/use-unsaved-warning";
import { getErrorMessage } from "../../lib/errors";
import { plural } from "../../lib/text";
import { cmsKeys, deleteContentType, updateContentType } from "./cms-api";
import type { ContentTypeRecord } from "./entry-definition";
import { FieldDrawer } from "./field-drawer";
import { KIND_NAMES, NewTypeDialog } from "./new-type-dialog";
import { type FieldRow, rowsOf, TypeFieldsTable } from "./type-fields-table";
import { useContentTypes } from "./use-content-types";

export default function ContentTypesPage() {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const types = useContentTypes();
  const [params, setParams] = useSearchParams();
  const selected = types.data?.find((t) => t.apiName === params.get("type")) ?? types.data?.[0];
  const [rows, setRows] = useState<FieldRow[]>([]);
  const [dirty, setDirty] = useState(false);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const [editing, setEditing] = useState<number | "new" | null>(null);
  const [creating, setCreating] = useState(false);
  const newTypeButton = useRef<HTMLButtonElement>(null);
  const [saving, setSaving] = useState(false);

  useUnsavedWarning(dirty);
  // Another type chosen: its fields. The same type read again (a refetch): kept unless unsaved
  // edits are on screen, which a refetch must never wipe.
  const shown = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!selected) return;
    if (shown.current === selected.apiName && dirtyRef.current) return;
    shown.current = selected.apiName;
    setRows(rowsOf(selected));
    setDirty(false);
  }, [selected]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: cmsKeys.types });
  const change = (next: FieldRow[]) => {
    setRows(next);
    setDirty(true);
  };
  const move = (i: number, by: number) => {
    const next = [...rows];
    const [row] = next.splice(i, 1);
    next.splice(i + by, 0, row);
    change(next);
  };

  const save = async (confirm = false) => {
    if (!selected) return;
    setSaving(true);
    const renames: Record<string, string> = {};
    for (const r of rows) if (r.original && r.original !== r.name) renames[r.original] = r.name;
    try {
      await updateContentType(selected.apiName, {
        properties: Object.fromEntries(rows.map((r) => [r.name, r.field])),
        required: rows.filter((r) => r.required).map((r) => r.name),
        ...(Object.keys(renames).length ? { renames } : {}),
        ...(confirm ? { confirm: true } : {}),
      });
      // Saved: what the server now holds replaces the rows when it arrives.
      dirtyRef.current = false;
      setDirty(false);
      await refresh();
      message.success(`${selected.name} saved`);
    } catch (error) {
      const status = (error as { statusCode?: number; response?: { status?: number } }).response?.status;
      if (status === 409 && !confirm) {
        modal.confirm({
          title: "Delete stored values?",
          content: getErrorMessage(error),
          okText: "Yes, remove the fields",
          okButtonProps: { danger: true },
          onOk: () => save(true),
        });
      } else message.error(getErrorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const remove = (type: ContentTypeRecord) =>
    modal.confirm({
      title: `Delete ${type.name}?`,
      content: type.entryCount
        ? `Its ${plural(type.entryCount, "entry", "entries")} will be deleted with it.`
        : "It has no entries.",
      okText: "Yes, delete",
      okButtonProps: { danger: true },
      // Deleted, its Delete button is gone: focus goes to the list's New type (or stays, when kept).
      afterClose: () => focusFirst(document.activeElement === document.body ? newTypeButton.current : null),
      onOk: async () => {
        try {
          await deleteContentType(type.apiName, type.entryCount > 0);
          setParams({});
          await refresh();
          message.success(`${type.name} deleted`);
        } catch (error) {
          message.error(getErrorMessage(error));
        }
      },
    });

  const menuItems = useMemo(
    () =>
      (Object.keys(KIND_NAMES) as ContentTypeKind[]).map((kind) => ({
        type: "group" as const,
        key: kind,
        label: KIND_NAMES[kind][1],
        children: (types.data ?? [])
          .filter((t) => t.kind === kind)
          .map((t) => ({
            key: t.apiName,
            label: (
              <Typography.Text ellipsis={{ tooltip: { title: t.name, placement: "right" } }}>
                {t.name}
              </Typography.Text>
            ),
          })),
      })),
    [types.data],
  );

  if (types.isLoading) return <PageLoader />;
  if (types.isError)
    return <LoadError what="content types" error={types.error} onRetry={() => types.refetch()} />;

  const current = editing === null || editing === "new" ? undefined : rows[editing];
  return (
    <Row gutter={16}>
      <Col xs={24} md={7} xl={6}>
        <Card
          title="Types"
          extra={
            <Button
              ref={newTypeButton}
              type="primary"
              icon={<PlusOutlined aria-hidden />}
              onClick={() => setCreating(true)}
            >
              New type
            </Button>
          }
          styles={{ body: { padding: 0 } }}
        >
          {types.data?.length ? (
            <Menu
              mode="inline"
              selectedKeys={selected ? [selected.apiName] : []}
              items={menuItems}
              onClick={({ key }) => setParams({ type: key })}
              style={{ borderInlineEnd: 0 }}
            />
          ) : (
            <Empty style={{ padding: 24 }} description="No content types yet" />
          )}
        </Card>
      </Col>
      <Col xs={24} md={17} xl={18}>
        {selected ? (
          <Card
            title={
              // A long name is cut to the room it has ("…", whole on hover), never run under the links.
              <Flex align="center" gap={8} style={{ minWidth: 0, paddingInlineEnd: 16 }}>
                <Typography.Title
                  level={4}
                  ellipsis={{ tooltip: selected.name }}
                  style={{ margin: 0, minWidth: 80, flex: "0 1 auto" }}
                >
                  {selected.name}
                </Typography.Title>
                <Tag style={{ flex: "none", marginInlineEnd: 0 }}>{KIND_NAMES[selected.kind][0]}</Tag>
                <Typography.Text
                  type="secondary"
                  code
                  ellipsis={{ tooltip: selected.apiName }}
                  style={{ minWidth: 120, maxWidth: "40%", flex: "0 1 auto" }}
                >
                  {selected.apiName}
                </Typography.Text>
              </Flex>
            }
            extra={
              <Space wrap>
                {selected.kind !== "component" && (
                  <Link to={`/cms/entries/${selected.apiName}`}>
                    {selected.entryCount
                      ? `Open ${plural(selected.entryCount, "entry", "entries")}`
                      : "Open entries"}
                  </Link>
                )}
                <Button danger icon={<DeleteOutlined aria-hidden />} onClick={() => remove(selected)}>
                  Delete type
                </Button>
              </Space>
            }
          >
            <TypeFieldsTable
              rows={rows}
              onEdit={setEditing}
              onMove={move}
              onRemove={(i) => change(rows.filter((_, j) => j !== i))}
            />
            <Flex justify="space-between" style={{ marginTop: 16 }}>
              <Button data-add-field icon={<PlusOutlined aria-hidden />} onClick={() => setEditing("new")}>
                Add field
              </Button>
              <Space>
                {dirty && <Typography.Text type="secondary">Unsaved changes</Typography.Text>}
                <Button
                  disabled={!dirty}
                  onClick={() => {
                    if (selected) setRows(rowsOf(selected));
                    setDirty(false);
                  }}
                >
                  Discard
                </Button>
                <Button type="primary" disabled={!dirty} loading={saving} onClick={() => save()}>
                  Save type
                </Button>
              </Space>
            </Flex>
          </Card>
        ) : (
          <Card>
            <Empty description="Create a collection, a single or a component to start">
              <Button type="primary" onClick={() => setCreating(true)}>
                New type
              </Button>
            </Empty>
          </Card>
        )}
      </Col>
      <NewTypeDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={async (t) => {
          setCreating(false);
          await refresh();
          setParams({ type: t.apiName });
        }}
      />
      {selected && (
        <FieldDrawer
          open={editing !== null}
          initial={current}
          takenNames={rows.filter((_, i) => i !== editing).map((r) => r.name)}
          textFields={rows
            .filter((r) => ["text", "longtext"].includes(r.field["x-kind"]))
            .map((r) => ({ name: r.name, title: r.field.title }))}
          types={types.data ?? []}
          self={selected.apiName}
          onClose={() => setEditing(null)}
          onDone={(draft) => {
            if (editing === "new") change([...rows, draft]);
            else if (editing !== null)
              change(rows.map((r, i) => (i === editing ? { ...draft, original: r.original } : r)));
            setEditing(null);
          }}
        />
      )}
    </Row>
  );
}
