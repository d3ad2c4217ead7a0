/**
 * antd's Select for a required Form.Item. Form.Item hands its control `aria-required`, and
 * Select sets it twice: on its combobox input, where it belongs, and on its wrapper <div>, a
 * generic element no ARIA role lets carry it (axe-core: aria-allowed-attr, critical). This
 * Select takes it off the wrapper after each render; the input keeps it, so a screen reader
 * still says "required".
 */
import { Select, type SelectProps } from "antd";
import type { RefSelectProps } from "antd/es/select";
import { useLayoutEffect, useRef } from "react";

export function FormSelect<T = unknown>(props: SelectProps<T>) {
  const ref = useRef<RefSelectProps>(null);
  useLayoutEffect(() => {
    ref.current?.nativeElement?.removeAttribute("aria-required");
  });
  return <Select<T> ref={ref} {...props} />;
}
