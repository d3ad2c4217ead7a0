/**
 * Rich-text fields in the generated forms: the TipTap editor, loaded when first needed (a
 * plain text area stands in while it loads). A string field is one when its schema says
 * `x-richText` (CMS rich-text fields, also inside components and dynamic-zone blocks), so the
 * registry's text widget hands those over here and draws every other string as before.
 */
import { getDefaultRegistry } from "@rjsf/core";
import type { WidgetProps } from "@rjsf/utils";
import { Input } from "antd";
import { lazy, Suspense } from "react";

const RichTextEditor = lazy(() => import("./rich-text-editor"));

export function RichTextWidget({
  id,
  value,
  onChange,
  onBlur,
  disabled,
  readonly,
  label,
  rawErrors,
}: WidgetProps) {
  const text = typeof value === "string" ? value : undefined;
  return (
    <Suspense
      fallback={
        <Input.TextArea id={id} value={text} rows={6} disabled aria-label={`${label} (loading the editor)`} />
      }
    >
      <RichTextEditor
        id={id}
        value={text}
        onChange={(html) => onChange(html)}
        onBlur={() => onBlur(id, text)}
        disabled={disabled || readonly}
        label={label}
        invalid={Boolean(rawErrors?.length)}
      />
    </Suspense>
  );
}

const PlainTextWidget = getDefaultRegistry().widgets.TextWidget;

/** The registry's `TextWidget`: rich text where the schema asks for it, the usual input elsewhere. */
export function TextOrRichTextWidget(props: WidgetProps) {
  return (props.schema as { "x-richText"?: boolean })["x-richText"] ? (
    <RichTextWidget {...props} />
  ) : (
    <PlainTextWidget {...props} />
  );
}
