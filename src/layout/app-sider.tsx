import type { RefineThemedLayoutSiderProps } from "@refinedev/antd";
import { ThemedSider, useThemedLayoutContext } from "@refinedev/antd";
import { useEffect, useLayoutEffect, useRef } from "react";
import { Link } from "react-router";
import { PREFERENCE_KEYS } from "../../schemas/preferences";
import { Brand } from "../components/brand";
import { usePreference } from "./use-preference";

/** Logo linking home; compact when the sider is collapsed. */
export function AppTitle({ collapsed }: { collapsed: boolean }) {
  return (
    <Link to="/" aria-label="Atelier home" style={{ display: "inline-flex" }}>
      <Brand size={28} compact={collapsed} />
    </Link>
  );
}

/** This device's copy of the choice, read before the first paint (cleared on sign-out, spec §8). */
const LOCAL_KEY = PREFERENCE_KEYS.menuClose;

function readLocal(): boolean | null {
  const stored = localStorage.getItem(LOCAL_KEY);
  return stored === "true" ? true : stored === "false" ? false : null;
}

/**
 * Keeps the sider folded or open as the user left it (spec §3 `ui.menuClose`): at once from
 * this device's copy, then from the server's, which follows the user to other devices and
 * outlives a sign-out. A toggle made before the server answers is the one kept.
 */
function CollapseMemory() {
  const { siderCollapsed, setSiderCollapsed } = useThemedLayoutContext();
  const { value: saved, ready, save } = usePreference<boolean>(PREFERENCE_KEYS.menuClose);
  /** The state last read or written: a change to anything else is the user's toggle. */
  const known = useRef<boolean | null>(null);
  const toggled = useRef(false);
  const mounted = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, before the first paint.
  useLayoutEffect(() => {
    const local = readLocal();
    if (local === null) return;
    known.current = local;
    if (local !== siderCollapsed) setSiderCollapsed(local);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the saved value only.
  useEffect(() => {
    if (!ready || typeof saved !== "boolean" || toggled.current || saved === known.current) return;
    known.current = saved;
    localStorage.setItem(LOCAL_KEY, String(saved));
    setSiderCollapsed(saved);
  }, [ready, saved]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to the sider's state only.
  useEffect(() => {
    // The first run sees the state from before the device's copy was applied.
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    if (siderCollapsed === (known.current ?? false)) return;
    known.current = siderCollapsed;
    toggled.current = true;
    localStorage.setItem(LOCAL_KEY, String(siderCollapsed));
    save(siderCollapsed);
  }, [siderCollapsed]);
  return null;
}

/**
 * A menu name cut to its two lines (layout.css) says itself whole on hover: its link gets the
 * name as its title while cut. The sider's items are Refine's, so they are marked as they come.
 */
function WholeNamesOnHover() {
  useEffect(() => {
    let frame = 0;
    const mark = () => {
      frame = 0;
      for (const box of document.querySelectorAll<HTMLElement>(".ant-layout-sider .ant-menu-title-content")) {
        const target = box.querySelector("a") ?? box;
        const cut = box.scrollHeight > box.clientHeight + 1;
        if (cut) target.title = box.textContent ?? "";
        else target.removeAttribute("title");
      }
    };
    const later = () => {
      frame ||= requestAnimationFrame(mark);
    };
    later();
    const observer = new MutationObserver(later);
    // The sider when it is there (it is, beside this, on wide screens); else the page, for the
    // drawer the sider becomes on narrow ones.
    observer.observe(document.querySelector(".ant-layout-sider") ?? document.body, {
      childList: true,
      subtree: true,
    });
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, []);
  return null;
}

/**
 * Refine's sider: menu items come from the resources and each is wrapped in access control,
 * so ungranted modules are not listed. Sign-out lives in the header's user menu instead.
 * No hooks here: ThemedLayout calls this function outside React's render to learn whether
 * there is a sider, so the memory of its state is a component of its own.
 */
export function AppSider(props: RefineThemedLayoutSiderProps) {
  return (
    <>
      <CollapseMemory />
      <WholeNamesOnHover />
      <ThemedSider {...props} Title={AppTitle} fixed render={({ items }) => items} />
    </>
  );
}
