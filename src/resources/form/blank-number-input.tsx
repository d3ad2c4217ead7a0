import { Templates } from "@rjsf/antd";
import type { BaseInputTemplateProps } from "@rjsf/utils";

const AntdBaseInput = Templates.BaseInputTemplate!;

/**
 * antd's input template, with a cleared number box being a blank field (undefined) like a
 * cleared text box, not null: the form's schema has one type per field (rjsf draws a number
 * box only for a plain `number`), so null would read as "must be a number" instead of blank.
 */
export function BlankNumberInputTemplate(props: BaseInputTemplateProps) {
  const { onChange } = props;
  return (
    <AntdBaseInput {...props} onChange={(value: unknown) => onChange(value === null ? undefined : value)} />
  );
}
