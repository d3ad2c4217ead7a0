/**
 * A labelled input of the builder's panels and settings, with its message under it: antd's
 * Form.Item for the look, tied to its input by `id` (these forms keep their values in the
 * page's state, not in an antd form store, so nothing else would link label and input).
 */
import { Form } from "antd";
import type { ReactNode } from "react";

export interface PanelItemProps {
  /** The input's `id`; the label points at it. */
  id: string;
  label: ReactNode;
  /** What is wrong with the value, shown in red under it. */
  message?: string | readonly string[];
  extra?: ReactNode;
  required?: boolean;
  children: ReactNode;
  className?: string;
}

export function PanelItem({ id, label, message, extra, required, children, className }: PanelItemProps) {
  const messages = message === undefined ? [] : typeof message === "string" ? [message] : message;
  return (
    <Form.Item
      label={label}
      htmlFor={id}
      required={required}
      validateStatus={messages.length ? "error" : undefined}
      help={messages.length ? messages.map((m) => <div key={m}>{m}</div>) : undefined}
      extra={extra}
      className={className}
    >
      {children}
    </Form.Item>
  );
}
