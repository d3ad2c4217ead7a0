/**
 * Lazy loaders of antd icons by name (`ShoppingOutlined`): definitions name icons as strings,
 * so any antd icon works without a registry to keep.
 *
 * This file serves the dev server and the tests: every icon, each loaded only when shown. The
 * production build replaces it with the icons the definitions name (the `atelier-antd-icons`
 * plugin, scripts/vite/antd-icons.ts), so it emits one small chunk per icon in use instead of
 * one per antd icon, and warns about a name that is no antd icon.
 */
import type { ComponentType, CSSProperties } from "react";

/** An antd icon component, as the app uses it. */
export type IconComponent = ComponentType<{
  style?: CSSProperties;
  className?: string;
  "aria-hidden"?: boolean;
}>;

export type IconLoader = () => Promise<{ default: IconComponent }>;

// The folder also holds index.js, which is no icon.
const files = import.meta.glob<{ default: IconComponent }>([
  "/node_modules/@ant-design/icons/es/icons/*.js",
  "!/node_modules/@ant-design/icons/es/icons/index.js",
]);

export const ICON_LOADERS: Readonly<Record<string, IconLoader>> = Object.fromEntries(
  Object.entries(files).map(([file, load]) => [file.slice(file.lastIndexOf("/") + 1, -".js".length), load]),
);
