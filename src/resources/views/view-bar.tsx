import { DownOutlined, SaveOutlined, StarFilled, TeamOutlined } from "@ant-design/icons";
import { App, Button, Dropdown, Flex, type MenuProps, Tooltip, Typography } from "antd";
import type { ResourceDefinition } from "../../../resources/contract";
import type { SavedView } from "../../../schemas/saved-views";
import { TabStrip } from "../../components/tab-strip";
import { getErrorMessage } from "../../lib/errors";
import type { ListViews } from "./use-list-views";
import { deleteView, setDefaultView, updateView } from "./views-api";

const ALL = "all";

/**
 * A list's saved views as tabs (loaded once the person has a view: view-tabs.tsx): "All
 * <records>", then the shared views and the person's own. The open view's menu saves the
 * list's changes into it, renames it, shares it, makes it the default, or deletes it after a
 * confirmation. Tabs are reached with Tab and moved along with the arrow keys (TabStrip).
 */
export default function ViewBar({
  def,
  views,
  onName,
}: {
  def: ResourceDefinition;
  views: ListViews;
  /** Opens the naming dialog: for a new view (null) or to rename `view`. */
  onName: (view: SavedView | null) => void;
}) {
  const { message, modal } = App.useApp();
  const { active, changed } = views;
  const plural = def.label.toLowerCase();

  const run = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      message.success(done);
    } catch (error) {
      message.error(getErrorMessage(error));
    }
    await views.refresh();
  };

  const confirmDelete = (view: SavedView) =>
    modal.confirm({
      title: `Delete the view “${view.name}”?`,
      content: view.shared
        ? "It is shared: it goes for everyone who has this module. The records stay as they are."
        : "The records stay as they are.",
      okText: "Delete view",
      okButtonProps: { danger: true },
      cancelText: "Cancel",
      onOk: async () => {
        await run(() => deleteView(def, view.id), `View “${view.name}” deleted`);
        views.apply(null);
      },
    });

  const menu = (view: SavedView): MenuProps["items"] => {
    const isDefault = views.defaultId === view.id;
    return [
      ...(view.canEdit
        ? [
            {
              key: "save",
              label: "Save the list's changes into this view",
              disabled: !changed,
              onClick: () =>
                run(() => updateView(def, view.id, { state: views.now }), `View “${view.name}” saved`),
            },
            { key: "rename", label: "Rename…", onClick: () => onName(view) },
            {
              key: "share",
              label: view.shared ? "Make it personal" : "Share with everyone who has this module",
              onClick: () =>
                run(
                  () => updateView(def, view.id, { shared: !view.shared }),
                  view.shared ? `“${view.name}” is personal now` : `“${view.name}” is shared now`,
                ),
            },
          ]
        : []),
      {
        key: "default",
        label: isDefault ? "Stop opening the list with this view" : "Open the list with this view",
        onClick: () =>
          run(
            () => setDefaultView(def, isDefault ? null : view.id),
            isDefault
              ? `The ${plural} list opens plainly again`
              : `The ${plural} list opens with “${view.name}”`,
          ),
      },
      ...(view.canEdit
        ? [
            { type: "divider" as const },
            { key: "delete", label: "Delete…", danger: true, onClick: () => confirmDelete(view) },
          ]
        : []),
    ];
  };

  const items = [
    { key: ALL, label: `All ${plural}` },
    ...views.views.map((view) => ({
      key: view.id,
      label: (
        <span>
          {view.name}
          {view.shared && (
            <Tooltip title={`Shared by ${view.ownerName || "a colleague"}`}>
              <TeamOutlined aria-label="shared" style={{ marginInlineStart: 6 }} />
            </Tooltip>
          )}
          {views.defaultId === view.id && (
            <Tooltip title="Opens with the list">
              <StarFilled aria-label="default" style={{ marginInlineStart: 6, color: "#faad14" }} />
            </Tooltip>
          )}
        </span>
      ),
    })),
  ];

  const extra = (
    <Flex gap={8} align="center">
      {active && changed && (
        <Typography.Text type="secondary" style={{ fontSize: 13 }}>
          Changed since the view was opened
        </Typography.Text>
      )}
      {active && (
        <Dropdown menu={{ items: menu(active) }} trigger={["click"]}>
          <Button size="small" aria-label={`View options for ${active.name}`}>
            View options <DownOutlined />
          </Button>
        </Dropdown>
      )}
      <Button size="small" icon={<SaveOutlined />} onClick={() => onName(null)}>
        Save as view
      </Button>
    </Flex>
  );

  // The buttons beside the tabs, not in their tab list (which may hold only tabs).
  return (
    <Flex align="center" gap={12} style={{ marginBottom: 12 }}>
      <TabStrip
        aria-label={`Views of the ${plural} list`}
        activeKey={active?.id ?? ALL}
        items={items}
        onChange={(key) => views.apply(views.views.find((v) => v.id === key) ?? null)}
      />
      {extra}
    </Flex>
  );
}
