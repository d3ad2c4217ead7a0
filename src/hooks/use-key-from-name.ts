/**
 * Fills an antd form's key field from its name field, the one way every key screen does it
 * (src/lib/key-from-name.ts): call the returned function with each new name (the name input's
 * onChange). The key follows the name until the person writes a key of their own.
 */
import type { FormInstance } from "antd";
import { useCallback, useRef } from "react";
import { followName, type KeyRule } from "../lib/key-from-name";

export function useKeyFromName(
  // biome-ignore lint/suspicious/noExplicitAny: any antd form holding a key field
  form: FormInstance<any>,
  keyField: string,
  rule: KeyRule,
  /** Off for a record that has its key already (a key already in use stays put). */
  enabled = true,
): (name: string) => void {
  const lastName = useRef("");
  const { separator, maxLength, startWithLetter } = rule;
  return useCallback(
    (name: string) => {
      const before = lastName.current;
      lastName.current = name;
      if (!enabled) return;
      const key = String(form.getFieldValue(keyField) ?? "");
      const next = followName(before, name, key, { separator, maxLength, startWithLetter });
      if (next === undefined) return;
      form.setFieldValue(keyField, next);
      // A message left from an earlier check must not outlive the key it was about.
      if (form.getFieldError(keyField).length) void form.validateFields([keyField]).catch(() => undefined);
    },
    [form, keyField, separator, maxLength, startWithLetter, enabled],
  );
}

/**
 * A key field's rules: required, then the real reason a key is refused, its length (with the
 * limit) before its alphabet, so a long key is never told it has the wrong characters.
 */
export function keyRules(
  label: string,
  rule: KeyRule,
  pattern: RegExp,
  /** What the key may hold, said after its label ("may only contain…"). */
  alphabet: string,
  /** The message of an empty key ("Give the type an API name"). */
  missing: string,
) {
  return [
    { required: true, message: missing },
    {
      validator: async (_: unknown, value: unknown) => {
        const key = typeof value === "string" ? value : "";
        if (!key) return;
        if (key.length > rule.maxLength)
          throw new Error(
            `${label} is ${key.length} characters long; it may be at most ${rule.maxLength} characters`,
          );
        if (!pattern.test(key)) throw new Error(`${label} ${alphabet}`);
      },
    },
  ];
}
