/**
 * The options of a dropdown, radio buttons or checkboxes: one input a row, moved up and down
 * with buttons, removed, and added (Enter in an option adds the next one after it; pasting
 * several lines adds one option a line). Blank and repeated options are marked.
 */
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { Button, Flex, Form, Input, Typography } from "antd";
import { type ClipboardEvent, useEffect, useRef } from "react";

const MAX_OPTIONS = 200;

interface OptionsEditorProps {
  options: readonly string[];
  problems: Readonly<Record<string, string>>;
  onChange: (options: string[]) => void;
}

export function OptionsEditor({ options, problems, onChange }: OptionsEditorProps) {
  const list = useRef<HTMLUListElement>(null);
  const focusAt = useRef<number | null>(null);
  useEffect(() => {
    if (focusAt.current === null) return;
    list.current?.querySelectorAll<HTMLInputElement>("input")[focusAt.current]?.focus();
    focusAt.current = null;
  });

  const set = (i: number, value: string) => onChange(options.map((o, j) => (j === i ? value : o)));
  const insert = (at: number, values: string[]) => {
    focusAt.current = at + values.length - 1;
    onChange([...options.slice(0, at), ...values, ...options.slice(at)].slice(0, MAX_OPTIONS));
  };
  const move = (i: number, by: -1 | 1) => {
    const next = [...options];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    focusAt.current = null;
    onChange(next);
  };
  const remove = (i: number) => {
    focusAt.current = Math.max(0, i - 1);
    onChange(options.filter((_, j) => j !== i));
  };
  const onPaste = (i: number, event: ClipboardEvent<HTMLInputElement>) => {
    const lines = event.clipboardData
      .getData("text")
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    if (lines.length < 2) return;
    event.preventDefault();
    const next = [...options];
    next.splice(i, options[i] ? 0 : 1, ...lines);
    focusAt.current = i + lines.length - 1;
    onChange(next.slice(0, MAX_OPTIONS));
  };

  const listMessage = problems.options;
  return (
    <Form.Item
      label="Options"
      required
      validateStatus={listMessage ? "error" : undefined}
      help={listMessage}
      extra="Enter adds the next option; pasting several lines adds one option a line."
    >
      <ul ref={list} aria-label="Options" className="fb-options">
        {options.map((option, i) => {
          const message = problems[`options.${i}`];
          return (
            // Rows are positions: an option's text may repeat while it is typed.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above.
            <li key={i} className="fb-option">
              <Flex gap={4} align="center">
                <Input
                  value={option}
                  maxLength={200}
                  status={message ? "error" : undefined}
                  aria-label={`Option ${i + 1}`}
                  aria-invalid={Boolean(message)}
                  onChange={(e) => set(i, e.target.value)}
                  onPaste={(e) => onPaste(i, e)}
                  onPressEnter={(e) => {
                    e.preventDefault();
                    insert(i + 1, [""]);
                  }}
                />
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowUpOutlined aria-hidden />}
                  aria-label={`Move option ${i + 1} up`}
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                />
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowDownOutlined aria-hidden />}
                  aria-label={`Move option ${i + 1} down`}
                  disabled={i === options.length - 1}
                  onClick={() => move(i, 1)}
                />
                <Button
                  type="text"
                  size="small"
                  danger
                  icon={<DeleteOutlined aria-hidden />}
                  aria-label={`Remove option ${i + 1}`}
                  disabled={options.length === 1}
                  onClick={() => remove(i)}
                />
              </Flex>
              {message && (
                <Typography.Text type="danger" className="fb-option-message">
                  {message}
                </Typography.Text>
              )}
            </li>
          );
        })}
      </ul>
      <Button
        type="dashed"
        block
        icon={<PlusOutlined aria-hidden />}
        onClick={() => insert(options.length, [""])}
        disabled={options.length >= MAX_OPTIONS}
        style={{ marginTop: 4 }}
      >
        Add option
      </Button>
    </Form.Item>
  );
}
