/**
 * antd's Select for a required Form.Item. Form.Item hands its control `aria-required`, and
 * Select sets it twice: on its combobox input, where it belongs, and on its wrapper <div>, a
 * generic element no ARIA role lets carry it (axe-core: aria-allowed-attr, critical; antd
 * issue #46030, open in antd 5). This Select takes it off the wrapper after each render; the
 * input keeps it, so a screen reader still says "required".
 *
 * Form.Item also hands its control a `ref` (to scroll to and focus a field with an error). With
 * React 19 that ref is a prop, so it is forwarded here rather than spread over the Select's own.
 */
import { Select, type SelectProps } from "antd";
import type { RefSelectProps } from "antd/es/select";
import { type Ref, useImperativeHandle, useLayoutEffect, useRef } from "react";

export function FormSelect<T = unknown>({
  ref,
  ...props
}: SelectProps<T> & { ref?: Ref<RefSelectProps | null> }) {
  const own = useRef<RefSelectProps>(null);
  useImperativeHandle<RefSelectProps | null, RefSelectProps | null>(ref, () => own.current);
  useLayoutEffect(() => {
    own.current?.nativeElement?.removeAttribute("aria-required");
  });
  return <Select<T> ref={own} {...props} />;
}
