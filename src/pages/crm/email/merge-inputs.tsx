/**
 * Inputs whose text takes merge fields: a text area and a line, each with "Insert field"
 * (a sequence's steps, an automation's actions). The text area types the field where the cursor
 * is; the line adds it at the end.
 */
import { Input } from "antd";
import type { TextAreaRef } from "antd/es/input/TextArea";
import { type ReactNode, useRef } from "react";
import { MergeFieldMenu, type MergeFieldMenuProps } from "./merge-field-menu";
import "./merge-inputs.css";

/** A text area with "Insert field", which types the field where the cursor is. */
export function MergeText({
  id,
  value,
  rows,
  maxLength,
  onChange,
  footer,
  groups,
}: {
  id: string;
  value: string;
  rows: number;
  maxLength?: number;
  onChange: (value: string) => void;
  footer?: ReactNode;
  groups?: MergeFieldMenuProps["groups"];
}) {
  const ref = useRef<TextAreaRef>(null);
  const insert = (token: string) => {
    const area = ref.current?.resizableTextArea?.textArea;
    const start = area?.selectionStart ?? value.length;
    const end = area?.selectionEnd ?? value.length;
    onChange(value.slice(0, start) + token + value.slice(end));
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(start + token.length, start + token.length);
    });
  };
  return (
    <>
      <Input.TextArea
        ref={ref}
        id={id}
        value={value}
        rows={rows}
        maxLength={maxLength}
        onChange={(e) => onChange(e.target.value)}
      />
      <div className="merge-text-tools">
        <MergeFieldMenu onInsert={insert} groups={groups} />
        {footer}
      </div>
    </>
  );
}

/** A single-line input with "Insert field". */
export function MergeLine({
  id,
  value,
  onChange,
  groups,
  maxLength = 200,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  groups?: MergeFieldMenuProps["groups"];
  maxLength?: number;
}) {
  return (
    <Input
      id={id}
      value={value}
      maxLength={maxLength}
      onChange={(e) => onChange(e.target.value)}
      addonAfter={<MergeFieldMenu onInsert={(token) => onChange(`${value}${token}`)} groups={groups} />}
      className="merge-line"
    />
  );
}
