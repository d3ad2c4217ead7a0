import { BulbOutlined, CopyOutlined, SaveOutlined, UndoOutlined } from "@ant-design/icons";
import { Button, Card, Flex, List, Space, Tooltip, Typography } from "antd";
import type { LinkSuggestion } from "../../../schemas/pdf-library";
import { FILL_CARD, PANEL_WIDTH } from "./editor-layout";
import { type EditorState, removeLink, updateLink } from "./hotspot-editor-state";
import { HotspotPanel } from "./hotspot-panel";

export interface HotspotSidebarProps {
  page: number;
  pageCount: number;
  editor: EditorState;
  setEditor: (update: (state: EditorState) => EditorState) => void;
  saving: boolean;
  onSave: () => void;
  onUndo: () => void;
  onCopy: () => void;
  suggestions: LinkSuggestion[];
  onAccept: (suggestion: LinkSuggestion) => void;
}

/**
 * Beside the page: undo, copy and save; the selected hotspot's properties (or how to draw
 * one); and the suggested Add Product hotspots for SKUs printed on the page.
 */
export function HotspotSidebar(props: HotspotSidebarProps) {
  const { page, editor, setEditor, suggestions } = props;
  const selected = editor.selected !== null ? editor.links[editor.selected] : undefined;
  const count = editor.links.length;
  return (
    <Card
      size="small"
      role="region"
      aria-label={`Hotspots of page ${page}`}
      style={{ ...FILL_CARD.style, width: PANEL_WIDTH, flex: "none" }}
      styles={FILL_CARD.styles}
      title={`Hotspots of page ${page}`}
      extra={
        <Space size={4}>
          <Tooltip title="Undo (Ctrl+Z)">
            <Button
              size="small"
              icon={<UndoOutlined />}
              aria-label="Undo"
              disabled={!editor.history.length}
              onClick={props.onUndo}
            />
          </Tooltip>
          <Tooltip title="Copy to another page">
            <Button
              size="small"
              icon={<CopyOutlined />}
              aria-label="Copy hotspots to another page"
              disabled={!count}
              onClick={props.onCopy}
            />
          </Tooltip>
          <Button
            size="small"
            type="primary"
            icon={<SaveOutlined />}
            loading={props.saving}
            disabled={!editor.dirty}
            onClick={props.onSave}
          >
            Save
          </Button>
        </Space>
      }
    >
      <Flex vertical gap={12}>
        {editor.dirty && <Typography.Text type="warning">Unsaved changes</Typography.Text>}
        {selected && editor.selected !== null ? (
          <HotspotPanel
            link={selected}
            index={editor.selected}
            pageCount={props.pageCount}
            onChange={(patch) =>
              setEditor((s) => (s.selected === null ? s : updateLink(s, s.selected, patch)))
            }
            onRemove={() => setEditor((s) => (s.selected === null ? s : removeLink(s, s.selected)))}
          />
        ) : (
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {count
              ? `${count} hotspot${count === 1 ? "" : "s"}. Select one to change it, or drag on the page to draw another.`
              : "Drag on the page to draw a hotspot."}
          </Typography.Paragraph>
        )}
        {suggestions.length > 0 && (
          <Card
            size="small"
            type="inner"
            title={
              <span>
                <BulbOutlined /> Suggested
              </span>
            }
          >
            <List
              size="small"
              dataSource={suggestions}
              renderItem={(s) => (
                <List.Item
                  actions={[
                    <Button
                      key="add"
                      size="small"
                      onClick={() => props.onAccept(s)}
                      aria-label={`Add a hotspot for ${s.skuCode}`}
                    >
                      Add
                    </Button>,
                  ]}
                >
                  <List.Item.Meta title={s.productName} description={`SKU ${s.skuCode} is on this page`} />
                </List.Item>
              )}
            />
          </Card>
        )}
      </Flex>
    </Card>
  );
}
