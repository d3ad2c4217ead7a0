/**
 * A mail's subject and body, with the placeholders they take as chips: a click (or Enter) on
 * one puts it where the caret last was in the subject or the body.
 */
import { Flex, Input, Tooltip, Typography } from "antd";
import { useRef } from "react";
import type { FormFieldDef } from "../../../schemas/form-definition";
import { PanelItem } from "./panel-item";
import { insertToken, templatePlaceholders } from "./settings-rules";

interface MailTemplateProps {
  /** Prefix of the inputs' ids. */
  id: string;
  subject: string;
  body: string;
  fields: readonly FormFieldDef[];
  subjectMessage?: string[];
  bodyMessage?: string[];
  onChange: (next: { subject: string; body: string }) => void;
  disabled?: boolean;
}

const MEANINGS: Record<string, string> = {
  "{{form}}": "The form's name",
  "{{answers}}": "Every answer, one per line",
};

export function MailTemplate(props: MailTemplateProps) {
  const { id, subject, body, fields, subjectMessage, bodyMessage, onChange, disabled } = props;
  const subjectRef = useRef<HTMLInputElement | null>(null);
  const bodyRef = useRef<HTMLTextAreaElement | null>(null);
  const last = useRef<{ which: "subject" | "body"; start: number; end: number }>({
    which: "body",
    start: body.length,
    end: body.length,
  });
  const remember = (which: "subject" | "body", el: HTMLInputElement | HTMLTextAreaElement) => {
    last.current = {
      which,
      start: el.selectionStart ?? el.value.length,
      end: el.selectionEnd ?? el.value.length,
    };
  };
  const labelOf = (token: string) =>
    MEANINGS[token] ?? fields.find((f) => `{{${f.id}}}` === token)?.label ?? token;

  const insert = (token: string) => {
    const { which, start, end } = last.current;
    const text = which === "subject" ? subject : body;
    const next = insertToken(text, start, end, token);
    onChange(which === "subject" ? { subject: next.text, body } : { subject, body: next.text });
    last.current = { which, start: next.caret, end: next.caret };
    requestAnimationFrame(() => {
      const el = which === "subject" ? subjectRef.current : bodyRef.current;
      el?.focus();
      el?.setSelectionRange(next.caret, next.caret);
    });
  };

  return (
    <>
      <PanelItem id={`${id}-subject`} label="Subject" message={subjectMessage}>
        <Input
          id={`${id}-subject`}
          ref={(el) => {
            subjectRef.current = el?.input ?? null;
          }}
          value={subject}
          maxLength={200}
          disabled={disabled}
          onChange={(e) => onChange({ subject: e.target.value, body })}
          onSelect={(e) => remember("subject", e.currentTarget)}
          onBlur={(e) => remember("subject", e.currentTarget)}
        />
      </PanelItem>
      <PanelItem id={`${id}-body`} label="Body" message={bodyMessage}>
        <Input.TextArea
          id={`${id}-body`}
          ref={(el) => {
            bodyRef.current = el?.resizableTextArea?.textArea ?? null;
          }}
          value={body}
          maxLength={10_000}
          disabled={disabled}
          autoSize={{ minRows: 3, maxRows: 10 }}
          onChange={(e) => onChange({ subject, body: e.target.value })}
          onSelect={(e) => remember("body", e.currentTarget)}
          onBlur={(e) => remember("body", e.currentTarget)}
        />
      </PanelItem>
      <Flex gap={4} wrap align="center" className="fs-chips" role="group" aria-label="Placeholders">
        <Typography.Text type="secondary">Insert:</Typography.Text>
        {templatePlaceholders(fields).map((token) => (
          <Tooltip key={token} title={labelOf(token)}>
            <button
              type="button"
              className="fs-chip"
              disabled={disabled}
              onClick={() => insert(token)}
              aria-label={`Insert ${token} (${labelOf(token)})`}
            >
              {token}
            </button>
          </Tooltip>
        ))}
      </Flex>
    </>
  );
}
