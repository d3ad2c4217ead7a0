/**
 * Inputs whose text takes merge fields: a text area and a line, each with "Insert field"
 * (a sequence's steps, an automation's actions). Both put the field where the cursor is and give
 * the text back with the cursor after it (insert-at-caret.ts).
 */
import { Input, type InputRef } from "antd";
import type { TextAreaRef } from "antd/es/input/TextArea";
import { type ReactNode, useRef } from "react";
import { insertIntoField } from "./insert-at-caret";
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
  const insert = (token: string) =>
    insertIntoField(ref.current?.resizableTextArea?.textArea, value, token, onChange);
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

/** A single-line input with "Insert field", which types the field where the cursor is. */
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
  const ref = useRef<InputRef>(null);
  return (
    <Input
      ref={ref}
      id={id}
      value={value}
      maxLength={maxLength}
      onChange={(e) => onChange(e.target.value)}
      addonAfter={
        <MergeFieldMenu
          onInsert={(token) => insertIntoField(ref.current?.input, value, token, onChange)}
          groups={groups}
        />
      }
      className="merge-line"
    />
  );
}
