/**
 * Icon registry: `resources/modules.ts` and `resources/<entity>.ts` name icons as strings
 * (they are pure data shared with the server); this maps those names to components. Only
 * the icons they use are imported, so the bundle does not pull the whole icon set.
 */
import {
  ApartmentOutlined,
  AppstoreOutlined,
  ClusterOutlined,
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
  AppstoreOutlined,
  ClusterOutlined,
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
