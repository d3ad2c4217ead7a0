/**
 * The icon of each field kind, for the palette, the canvas and the kind select: one entry a
 * kind (schemas/forms.ts names the kinds and their labels; icons are React, so they live here).
 */
import {
  AlignLeftOutlined,
  BorderHorizontalOutlined,
  CalendarOutlined,
  CheckCircleOutlined,
  CheckSquareOutlined,
  DownSquareOutlined,
  EyeInvisibleOutlined,
  FontColorsOutlined,
  FontSizeOutlined,
  MailOutlined,
  NumberOutlined,
  PaperClipOutlined,
  PhoneOutlined,
  SafetyCertificateOutlined,
  StarOutlined,
} from "@ant-design/icons";
import type { ComponentType } from "react";
import type { FormFieldKind } from "../../../schemas/forms";

export const FIELD_KIND_ICONS: Readonly<Record<FormFieldKind, ComponentType<{ "aria-hidden"?: boolean }>>> = {
  checkboxes: CheckSquareOutlined,
  consent: SafetyCertificateOutlined,
  date: CalendarOutlined,
  dropdown: DownSquareOutlined,
  email: MailOutlined,
  file: PaperClipOutlined,
  heading: FontColorsOutlined,
  hidden: EyeInvisibleOutlined,
  longtext: AlignLeftOutlined,
  number: NumberOutlined,
  page: BorderHorizontalOutlined,
  phone: PhoneOutlined,
  radio: CheckCircleOutlined,
  rating: StarOutlined,
  text: FontSizeOutlined,
};

/** The icon of a kind, hidden from screen readers (the kind's label says it). */
export function FieldKindIcon({ kind }: { kind: FormFieldKind }) {
  const Icon = FIELD_KIND_ICONS[kind];
  return <Icon aria-hidden />;
}
