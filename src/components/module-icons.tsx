/**
 * Icons by name: `resources/*.ts` and `resources/*.module.ts` name antd icons as strings
 * (they are pure data shared with the server). Any antd icon works; each loads as its own
 * small chunk when first shown, so a screen downloads only the icons it shows.
 */
import { AppstoreOutlined } from "@ant-design/icons";
import { type CSSProperties, type LazyExoticComponent, lazy, Suspense } from "react";
import { ICON_LOADERS, type IconComponent, type IconLoader } from "./icon-loaders";

interface IconProps {
  style?: CSSProperties;
  className?: string;
}

/** Shown for a name that is no antd icon (the build warns about it) or whose chunk failed to load. */
export const FALLBACK_ICON: IconComponent = AppstoreOutlined;

/** One lazy component per name, so a name loads once and later renders are instant. */
const lazyIcons = new Map<string, LazyExoticComponent<IconComponent>>();

function lazyIcon(name: string, load: IconLoader) {
  let icon = lazyIcons.get(name);
  if (!icon) {
    // A failed chunk (a deploy removed it, a flaky network) costs the icon, not the screen.
    icon = lazy(() => load().catch(() => ({ default: FALLBACK_ICON })));
    lazyIcons.set(name, icon);
  }
  return icon;
}

/** An empty antd-icon box, 1em square like the icon itself, so nothing moves when it arrives. */
function IconPlaceholder({ style, className }: IconProps) {
  return (
    <span
      aria-hidden
      className={className ? `anticon ${className}` : "anticon"}
      style={{ display: "inline-block", width: "1em", height: "1em", ...style }}
    />
  );
}

/** Whether `name` is an antd icon this build can show (else ModuleIcon shows FALLBACK_ICON). */
export const isKnownIcon = (name: string) => Object.hasOwn(ICON_LOADERS, name);

/** The antd icon called `name` (`ShoppingOutlined`), loaded on first use. */
export function ModuleIcon({ name, ...props }: IconProps & { name: string }) {
  if (!isKnownIcon(name)) return <FALLBACK_ICON {...props} />;
  const Icon = lazyIcon(name, ICON_LOADERS[name]);
  return (
    <Suspense fallback={<IconPlaceholder {...props} />}>
      <Icon {...props} />
    </Suspense>
  );
}
