/**
 * Icon registry: `resources/modules.ts` names icons as strings (it is pure data shared with
 * the server); this maps those names to components. Only the icons modules use are
 * imported, so the bundle does not pull the whole icon set.
 */
import {
  ApartmentOutlined,
  AppstoreOutlined,
  FilePdfOutlined,
  FormOutlined,
  LineChartOutlined,
  PictureOutlined,
  ReadOutlined,
  ShopOutlined,
  ShoppingOutlined,
  TeamOutlined,
  UserOutlined,
} from "@ant-design/icons";
import type { ComponentType, CSSProperties } from "react";

interface IconProps {
  style?: CSSProperties;
  className?: string;
}

export const MODULE_ICONS: Readonly<Record<string, ComponentType<IconProps>>> = {
  ApartmentOutlined,
  FilePdfOutlined,
  FormOutlined,
  LineChartOutlined,
  PictureOutlined,
  ReadOutlined,
  ShopOutlined,
  ShoppingOutlined,
  TeamOutlined,
  UserOutlined,
};

/** The icon registered under `name`, or a neutral one for unknown names. */
export function ModuleIcon({ name, ...props }: IconProps & { name: string }) {
  const Icon = MODULE_ICONS[name] ?? AppstoreOutlined;
  return <Icon {...props} />;
}
