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
/**
 * Icons whose code is in hand: rendered directly, not through `lazy`, which suspends on its first
 * render even then (and React holds back a suspended boundary's reveal for up to 300 ms, see
 * src/components/lazy-screen.tsx).
 */
const loadedIcons = new Map<string, IconComponent>();

/** Loads one icon's code and remembers it; a failed chunk (a deploy removed it, a flaky network) costs the icon, not the screen. */
function loadIcon(name: string, load: IconLoader): Promise<{ default: IconComponent }> {
  return load().then(
    (module) => {
      loadedIcons.set(name, module.default);
      return module;
    },
    () => ({ default: FALLBACK_ICON }),
  );
}

function lazyIcon(name: string, load: IconLoader) {
  let icon = lazyIcons.get(name);
  if (!icon) {
    icon = lazy(() => loadIcon(name, load));
    lazyIcons.set(name, icon);
  }
  return icon;
}

/**
 * Fetches the code of these icons now (the menu's, as the app starts), so they render with the
 * menu instead of popping in after it.
 */
export function preloadIcons(names: Iterable<string>): void {
  for (const name of new Set(names)) {
    if (isKnownIcon(name) && !loadedIcons.has(name)) void loadIcon(name, ICON_LOADERS[name]);
  }
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

/**
 * The antd icon called `name` (`ShoppingOutlined`), loaded on first use. Decoration beside its
 * label (menu, breadcrumb, cards): hidden from assistive technology, so "PDF library" is not
 * read as "file-pdf PDF library".
 */
export function ModuleIcon({ name, ...props }: IconProps & { name: string }) {
  if (!isKnownIcon(name)) return <FALLBACK_ICON aria-hidden {...props} />;
  const Loaded = loadedIcons.get(name);
  if (Loaded) return <Loaded aria-hidden {...props} />;
  const Icon = lazyIcon(name, ICON_LOADERS[name]);
  return (
    <Suspense fallback={<IconPlaceholder {...props} />}>
      <Icon aria-hidden {...props} />
    </Suspense>
  );
}

/** Controls whose icon sits beside words: antd and Refine draw these without a way to pass props. */
const LABELLED_CONTROLS = "button, a, [role='menuitem'], [role='tab'], .ant-breadcrumb-link";

/**
 * Hides an antd icon (`role="img"` with the icon's name as its label) when the control it sits in
 * has words of its own, so the control is named by them ("Create", not "plus-square Create").
 * An icon-only control keeps its icon's name.
 */
function hideIconsBesideWords(root: ParentNode): void {
  for (const icon of root.querySelectorAll<HTMLElement>(".anticon[role='img']:not([aria-hidden])")) {
    const control = icon.closest(LABELLED_CONTROLS);
    if (!control) continue;
    const words = [...control.childNodes]
      .filter((n) => !(n instanceof HTMLElement && n.classList.contains("anticon")))
      .map((n) => n.textContent ?? "")
      .join("")
      .trim();
    if (words) icon.setAttribute("aria-hidden", "true");
  }
}

/**
 * Keeps {@link hideIconsBesideWords} true for everything drawn into `root` from now on (Refine's
 * Create, Save, Edit, Delete and Refresh buttons carry antd icons). Returns the stop function.
 */
export function watchIconsBesideWords(root: HTMLElement = document.body): () => void {
  hideIconsBesideWords(root);
  // Only what was added is looked at (from its control up, for words added beside an icon).
  const observer = new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        const at = node instanceof Element ? node : node.parentElement;
        if (at) hideIconsBesideWords(at.closest(LABELLED_CONTROLS) ?? at);
      }
    }
  });
  observer.observe(root, { childList: true, subtree: true });
  return () => observer.disconnect();
}
