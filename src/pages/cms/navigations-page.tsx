/**
 * `/cms/navigations`: a domain's named navigations (header, footer, …). Pick the domain and the
 * navigation, then arrange its items by dragging and nesting, add links to entries, URLs and
 * groups, and save. The site reads it from `/public-cms/{domain}/navigations/{name}`.
 */
import { PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Typography,
} from "antd";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { domainLocalesOf } from "../../../schemas/cms-locales";
import type { NavItem, NavItemKind } from "../../../schemas/cms-navigation";
import { LoadError } from "../../components/load-error";
import { PageLoader } from "../../components/page-loader";
import { keyRules, useKeyFromName } from "../../hooks/use-key-from-name";
import { useUnsavedWarning } from "../../hooks/use-unsaved-warning";
import { getErrorMessage } from "../../lib/errors";
import type { KeyRule } from "../../lib/key-from-name";
import { randomId } from "../../lib/text";
import {
  cmsKeys,
  createNavigation,
  listDomains,
  listEntryOptions,
  listNavigations,
  updateNavigation,
} from "./cms-api";
import { buildTree, type FlatItem, flatten } from "./nav-tree";
import { NavigationEditor } from "./navigation-editor";
import { useContentTypes } from "./use-content-types";

interface NewItem {
  label: string;
  /** By the domain's other locales (schemas/cms-locales.ts). */
  labels?: Record<string, string | undefined>;
  kind: NavItemKind;
  url?: string;
  type?: string;
  entryId?: string;
}

/** The item's label in each given locale, the blank ones left out (they follow the fallback chain). */
function labelsOf(labels: NewItem["labels"]): Record<string, string> | undefined {
  const kept = Object.entries(labels ?? {}).flatMap(([code, text]) =>
    text?.trim() ? [[code, text.trim()]] : [],
  );
  return kept.length ? Object.fromEntries(kept) : undefined;
}

function AddItemForm({
  onAdd,
  locales,
}: {
  onAdd: (item: Omit<NavItem, "children">) => void;
  /** The domain's other locales, each offered a label of its own. */
  locales: readonly string[];
}) {
  const [form] = Form.useForm<NewItem>();
  const kind = Form.useWatch("kind", form) ?? "url";
  const type = Form.useWatch("type", form);
  const types = useContentTypes();
  const entries = useQuery({
    queryKey: ["cms", "entry-options", type],
    queryFn: () =>
      listEntryOptions(
        type as string,
        types.data?.find((t) => t.apiName === type)?.schema["x-label"] ?? "id",
      ),
    enabled: Boolean(type),
  });
  return (
    <Form<NewItem>
      form={form}
      layout="inline"
      initialValues={{ kind: "url" }}
      onFinish={(v) => {
        onAdd({
          id: randomId(12),
          label: v.label.trim(),
          ...(labelsOf(v.labels) ? { labels: labelsOf(v.labels) } : {}),
          kind: v.kind,
          ...(v.kind === "url" ? { url: v.url } : {}),
          ...(v.kind === "entry" ? { type: v.type, entryId: v.entryId } : {}),
        });
        form.resetFields(["label", "labels", "url", "entryId"]);
      }}
      style={{ rowGap: 8 }}
    >
      <Form.Item name="kind" label="Kind">
        <Select
          style={{ width: 140 }}
          options={[
            { value: "url", label: "Link" },
            { value: "entry", label: "Entry" },
            { value: "group", label: "Group" },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="label"
        label="Label"
        rules={[{ required: true, whitespace: true, message: "Give the item a label" }]}
      >
        <Input data-nav-add maxLength={120} style={{ width: 180 }} />
      </Form.Item>
      {locales.map((code) => (
        <Form.Item key={code} name={["labels", code]} label={code}>
          <Input maxLength={120} style={{ width: 150 }} placeholder="As its fallback" />
        </Form.Item>
      ))}
      {kind === "url" && (
        <Form.Item
          name="url"
          label="URL"
          rules={[
            {
              required: true,
              pattern: /^(https?:\/\/|\/|#|mailto:)/,
              message: "Start with http://, https://, / or #",
            },
          ]}
        >
          <Input maxLength={2000} style={{ width: 240 }} placeholder="https:// or /path" />
        </Form.Item>
      )}
      {kind === "entry" && (
        <>
          <Form.Item name="type" label="Type" rules={[{ required: true, message: "Choose a type" }]}>
            <Select
              style={{ width: 160 }}
              options={(types.data ?? [])
                .filter((t) => t.kind === "collection")
                .map((t) => ({ value: t.apiName, label: t.name }))}
              onChange={() => form.setFieldValue("entryId", undefined)}
            />
          </Form.Item>
          <Form.Item name="entryId" label="Entry" rules={[{ required: true, message: "Choose an entry" }]}>
            <Select
              style={{ width: 200 }}
              loading={entries.isLoading}
              options={entries.data ?? []}
              showSearch
              optionFilterProp="label"
            />
          </Form.Item>
        </>
      )}
      <Form.Item>
        <Button htmlType="submit" icon={<PlusOutlined aria-hidden />}>
          Add item
        </Button>
      </Form.Item>
    </Form>
  );
}

/** A navigation's name: kebab-case, 63 characters at most (server/modules/cms/navigation.routes.ts). */
const NAVIGATION_NAME_RULE: KeyRule = { separator: "-", maxLength: 63 };

function NewNavigationDialog({
  open,
  domainId,
  onClose,
  onCreated,
}: {
  open: boolean;
  domainId: string;
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const [form] = Form.useForm<{ name: string; title: string; max_depth: number }>();
  const { message } = App.useApp();
  const fillName = useKeyFromName(form, "name", NAVIGATION_NAME_RULE);
  return (
    <Modal
      title="New navigation"
      open={open}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="Create"
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ max_depth: 3 }}
        onFinish={async (v) => {
          try {
            const created = await createNavigation({ ...v, domain_id: domainId, items: [] });
            form.resetFields();
            onCreated(created.id);
          } catch (error) {
            message.error(getErrorMessage(error));
          }
        }}
      >
        <Form.Item
          name="title"
          label="Title"
          rules={[{ required: true, whitespace: true, message: "Give it a title" }]}
        >
          <Input autoFocus maxLength={120} onChange={(e) => fillName(e.target.value)} />
        </Form.Item>
        <Form.Item
          name="name"
          label="Name"
          extra="The site asks for it by this name"
          rules={keyRules(
            "Name",
            NAVIGATION_NAME_RULE,
            /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/,
            "may only contain lower-case letters, digits and dashes, and must start and end with a letter or digit",
            "Give it a name",
          )}
        >
          <Input maxLength={NAVIGATION_NAME_RULE.maxLength} />
        </Form.Item>
        <Form.Item name="max_depth" label="Maximum depth">
          <InputNumber min={1} max={8} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function NavigationsPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const domains = useQuery({ queryKey: ["cms", "domains"], queryFn: listDomains });
  const domainId = params.get("domain") ?? domains.data?.[0]?.id;
  const navigations = useQuery({
    queryKey: cmsKeys.navigations(domainId ?? ""),
    queryFn: () => listNavigations(domainId as string),
    enabled: Boolean(domainId),
  });
  const nav = navigations.data?.find((n) => n.id === params.get("nav")) ?? navigations.data?.[0];
  const [rows, setRows] = useState<FlatItem[]>([]);
  const [dirty, setDirty] = useState(false);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const [creating, setCreating] = useState(false);
  const [saving, setSaving] = useState(false);

  useUnsavedWarning(dirty);
  // Another navigation chosen: its items. The same one read again (a refetch): kept unless
  // unsaved edits are on screen, which a refetch must never wipe.
  const shown = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (shown.current === nav?.id && dirtyRef.current) return;
    shown.current = nav?.id;
    setRows(nav ? flatten(nav.items) : []);
    setDirty(false);
  }, [nav]);

  const change = (next: FlatItem[]) => {
    setRows(next);
    setDirty(true);
  };
  const save = async () => {
    if (!nav) return;
    setSaving(true);
    try {
      await updateNavigation(nav.id, { items: buildTree(rows) });
      // Saved: what the server now holds replaces the rows when it arrives.
      dirtyRef.current = false;
      setDirty(false);
      await queryClient.invalidateQueries({ queryKey: cmsKeys.navigations(domainId ?? "") });
      message.success(`${nav.title} saved`);
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  if (domains.isLoading) return <PageLoader />;
  if (domains.isError)
    return <LoadError what="domains" error={domains.error} onRetry={() => domains.refetch()} />;
  if (!domains.data?.length)
    return (
      <Card title="Navigations">
        <Empty description="Navigations belong to a domain: create a domain first" />
      </Card>
    );

  return (
    <Card
      title="Navigations"
      extra={
        <Space wrap>
          <Select
            aria-label="Domain"
            style={{ minWidth: 180 }}
            value={domainId}
            options={domains.data.map((d) => ({ value: d.id, label: d.name }))}
            onChange={(domain) => setParams({ domain })}
          />
          <Select
            aria-label="Navigation"
            style={{ minWidth: 180 }}
            value={nav?.id}
            placeholder="No navigation yet"
            options={(navigations.data ?? []).map((n) => ({ value: n.id, label: n.title }))}
            onChange={(id) => setParams({ domain: domainId ?? "", nav: id })}
          />
          <Button icon={<PlusOutlined aria-hidden />} onClick={() => setCreating(true)}>
            New navigation
          </Button>
        </Space>
      }
    >
      {navigations.isError ? (
        <LoadError what="navigations" error={navigations.error} onRetry={() => navigations.refetch()} />
      ) : nav ? (
        <Flex vertical gap={16}>
          <Typography.Text type="secondary">
            Served at{" "}
            <Typography.Text code>
              /public-cms/{domains.data.find((d) => d.id === domainId)?.key}/navigations/{nav.name}
            </Typography.Text>
            , at most {nav.max_depth} levels deep. Drag items by their handle (sideways to nest them), or
            focus the handle, press Space, move with the arrow keys (Right nests under the item above, Left
            takes out a level) and press Space to drop.
          </Typography.Text>
          <NavigationEditor rows={rows} maxDepth={nav.max_depth} onChange={change} />
          <AddItemForm
            locales={domainLocalesOf(domains.data.find((d) => d.id === domainId) ?? {}).locales.map(
              (l) => l.code,
            )}
            onAdd={(item) => change([...rows, { item, depth: 0 }])}
          />
          <Flex justify="end" gap={8} align="center">
            {dirty && <Typography.Text type="secondary">Unsaved changes</Typography.Text>}
            <Button
              disabled={!dirty}
              onClick={() => {
                setRows(flatten(nav.items));
                setDirty(false);
              }}
            >
              Discard
            </Button>
            <Button type="primary" disabled={!dirty} loading={saving} onClick={save}>
              Save navigation
            </Button>
          </Flex>
        </Flex>
      ) : (
        <Empty description="This domain has no navigation yet">
          <Button type="primary" onClick={() => setCreating(true)}>
            New navigation
          </Button>
        </Empty>
      )}
      {domainId && (
        <NewNavigationDialog
          open={creating}
          domainId={domainId}
          onClose={() => setCreating(false)}
          onCreated={async (id) => {
            setCreating(false);
            await queryClient.invalidateQueries({ queryKey: cmsKeys.navigations(domainId) });
            setParams({ domain: domainId, nav: id });
          }}
        />
      )}
    </Card>
  );
}
