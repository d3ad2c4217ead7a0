/**
 * The rich-text editor of CMS rich-text fields (TipTap 3 over ProseMirror), loaded only when a
 * form has such a field. Writes HTML; the server sanitises it before storing. The toolbar's
 * buttons say whether their mark is on (`aria-pressed`); every one also has TipTap's keyboard
 * shortcut (Ctrl+B, Ctrl+I, Ctrl+Shift+8 …), and Tab leaves the editor as from any input.
 */
import {
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from "@ant-design/icons";
import { type Editor, EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Button, Divider, Flex, Input, Popover, Tooltip, theme } from "antd";
import { type ReactNode, useEffect, useState } from "react";
import "../rich-text.css";
import "./rich-text-editor.css";

export interface RichTextEditorProps {
  id: string;
  value: string | undefined;
  onChange: (html: string | undefined) => void;
  onBlur?: () => void;
  disabled?: boolean;
  /** The field's label, for the editing area's accessible name. */
  label: string;
  invalid?: boolean;
  /** Hands the editor over once made (a dialog's "Insert field" menu types at its cursor). */
  onEditor?: (editor: Editor | null) => void;
}

/** An empty document is no value at all (the field stays unset, as a blank input does). */
const htmlOf = (editor: Editor): string | undefined =>
  editor.isEmpty ? undefined : editor.getHTML().replace(/(<p><\/p>)+$/, "");

function ToolButton(props: {
  title: string;
  icon?: ReactNode;
  text?: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <Tooltip title={props.title} mouseEnterDelay={0.6}>
      <Button
        type={props.active ? "primary" : "text"}
        ghost={props.active}
        size="small"
        icon={props.icon}
        aria-label={props.title}
        aria-pressed={props.active}
        disabled={props.disabled}
        // Keeps the editor's selection: a click on the toolbar must not take focus from it.
        onMouseDown={(e) => e.preventDefault()}
        onClick={props.onClick}
      >
        {props.text}
      </Button>
    </Tooltip>
  );
}

/** Sets or removes the link on the selection, asking for its address. */
function LinkButton({ editor, disabled }: { editor: Editor; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState("");
  const apply = () => {
    const chain = editor.chain().focus().extendMarkRange("link");
    if (href.trim()) chain.setLink({ href: href.trim() }).run();
    else chain.unsetLink().run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        if (next) setHref((editor.getAttributes("link").href as string | undefined) ?? "");
        setOpen(next);
      }}
      trigger="click"
      content={
        <Flex gap={8}>
          <Input
            autoFocus
            aria-label="Link address"
            placeholder="https://"
            value={href}
            onChange={(e) => setHref(e.target.value)}
            onPressEnter={apply}
            style={{ width: 260 }}
          />
          <Button type="primary" onClick={apply}>
            {href.trim() ? "Apply" : "Remove"}
          </Button>
        </Flex>
      }
    >
      <span>
        <ToolButton
          title="Link"
          icon={<LinkOutlined />}
          active={editor.isActive("link")}
          disabled={disabled}
          onClick={() => setOpen(true)}
        />
      </span>
    </Popover>
  );
}

const NO_MARKS = {
  bold: false,
  italic: false,
  underline: false,
  strike: false,
  h2: false,
  h3: false,
  bullet: false,
  ordered: false,
  quote: false,
  canUndo: false,
  canRedo: false,
};

export default function RichTextEditor({
  id,
  value,
  onChange,
  onBlur,
  disabled,
  label,
  invalid,
  onEditor,
}: RichTextEditorProps) {
  const { token } = theme.useToken();
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false, autolink: true }, trailingNode: false })],
    content: value ?? "",
    editable: !disabled,
    editorProps: {
      attributes: {
        id,
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": label,
        "aria-invalid": invalid ? "true" : "false",
        class: "atelier-rich-text__content atelier-rich-text__editable",
      },
    },
    onUpdate: ({ editor: current }) => onChange(htmlOf(current)),
    onBlur: () => onBlur?.(),
  });
  const marks = useEditorState({
    editor,
    // An editor being replaced or torn down (a remount, leaving the page) answers nothing: its
    // view is gone, and asking it would throw inside React's render.
    selector: ({ editor: e }) => {
      if (!e || e.isDestroyed) return NO_MARKS;
      try {
        return {
          bold: e.isActive("bold"),
          italic: e.isActive("italic"),
          underline: e.isActive("underline"),
          strike: e.isActive("strike"),
          h2: e.isActive("heading", { level: 2 }),
          h3: e.isActive("heading", { level: 3 }),
          bullet: e.isActive("bulletList"),
          ordered: e.isActive("orderedList"),
          quote: e.isActive("blockquote"),
          canUndo: e.can().undo(),
          canRedo: e.can().redo(),
        };
      } catch {
        return NO_MARKS;
      }
    },
  });

  // A value set from outside (a restore, a reload after a conflict) replaces the document.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    if ((value ?? undefined) !== htmlOf(editor))
      editor.commands.setContent(value ?? "", { emitUpdate: false });
  }, [editor, value]);
  useEffect(() => {
    // Without an update event: locking the editor (while saving) changes nothing in the value.
    if (editor && !editor.isDestroyed) editor.setEditable(!disabled, false);
  }, [editor, disabled]);
  useEffect(() => {
    if (!onEditor || !editor) return;
    onEditor(editor);
    return () => onEditor(null);
  }, [editor, onEditor]);

  if (!editor) return null;
  const run = (command: (e: Editor) => void) => () => command(editor);
  return (
    <div
      className="atelier-rich-text"
      data-invalid={invalid ? "true" : undefined}
      data-disabled={disabled ? "true" : undefined}
    >
      <Flex
        role="toolbar"
        aria-label={`${label} formatting`}
        gap={2}
        wrap
        align="center"
        style={{ padding: 4, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
      >
        <ToolButton
          title="Bold"
          icon={<BoldOutlined />}
          active={marks?.bold}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleBold().run())}
        />
        <ToolButton
          title="Italic"
          icon={<ItalicOutlined />}
          active={marks?.italic}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleItalic().run())}
        />
        <ToolButton
          title="Underline"
          icon={<UnderlineOutlined />}
          active={marks?.underline}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleUnderline().run())}
        />
        <ToolButton
          title="Strikethrough"
          icon={<StrikethroughOutlined />}
          active={marks?.strike}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleStrike().run())}
        />
        <Divider type="vertical" />
        <ToolButton
          title="Heading"
          text="H2"
          active={marks?.h2}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleHeading({ level: 2 }).run())}
        />
        <ToolButton
          title="Subheading"
          text="H3"
          active={marks?.h3}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleHeading({ level: 3 }).run())}
        />
        <ToolButton
          title="Bulleted list"
          icon={<UnorderedListOutlined />}
          active={marks?.bullet}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleBulletList().run())}
        />
        <ToolButton
          title="Numbered list"
          icon={<OrderedListOutlined />}
          active={marks?.ordered}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleOrderedList().run())}
        />
        <ToolButton
          title="Quote"
          text="“ ”"
          active={marks?.quote}
          disabled={disabled}
          onClick={run((e) => e.chain().focus().toggleBlockquote().run())}
        />
        <LinkButton editor={editor} disabled={disabled} />
        <Divider type="vertical" />
        <ToolButton
          title="Undo"
          icon={<UndoOutlined />}
          disabled={disabled || !marks?.canUndo}
          onClick={run((e) => e.chain().focus().undo().run())}
        />
        <ToolButton
          title="Redo"
          icon={<RedoOutlined />}
          disabled={disabled || !marks?.canRedo}
          onClick={run((e) => e.chain().focus().redo().run())}
        />
      </Flex>
      <EditorContent editor={editor} />
    </div>
  );
}
