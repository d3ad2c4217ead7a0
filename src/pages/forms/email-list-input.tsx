/**
 * A list of mail addresses typed as tags (Enter, comma, semicolon or space ends one; a pasted
 * list is split). Each address is checked as the server checks it (isEmailAddress) and one that
 * is none is drawn red; its message shows under the input.
 */
import { Select, Tag } from "antd";
import { isEmailAddress } from "../../../schemas/form-answers";

const MAX_ADDRESSES = 20;

interface EmailListInputProps {
  id: string;
  value: readonly string[];
  onChange: (value: string[]) => void;
  placeholder?: string;
  invalid?: boolean;
}

/** The addresses as stored: trimmed, without blanks or repeats. */
const tidy = (list: readonly string[]) =>
  [...new Set(list.map((a) => a.trim()).filter(Boolean))].slice(0, MAX_ADDRESSES);

export function EmailListInput({ id, value, onChange, placeholder, invalid }: EmailListInputProps) {
  return (
    <Select
      id={id}
      mode="tags"
      open={false}
      suffixIcon={null}
      value={[...value]}
      onChange={(next: string[]) => onChange(tidy(next))}
      tokenSeparators={[",", ";", " ", "\n"]}
      placeholder={placeholder ?? "name@example.com"}
      status={invalid ? "error" : undefined}
      style={{ width: "100%" }}
      tagRender={({ label, value: address, closable, onClose }) => {
        const bad = !isEmailAddress(String(address));
        return (
          <Tag
            color={bad ? "error" : undefined}
            closable={closable}
            onClose={onClose}
            closeIcon={undefined}
            onMouseDown={(e) => e.preventDefault()}
            style={{ marginInlineEnd: 4, marginBlock: 2 }}
          >
            {label}
          </Tag>
        );
      }}
    />
  );
}
