import type { RefineThemedLayoutSiderProps } from "@refinedev/antd";
import { ThemedSider } from "@refinedev/antd";
import { Link } from "react-router";
import { Brand } from "../components/brand";

/** Logo linking home; compact when the sider is collapsed. */
export function AppTitle({ collapsed }: { collapsed: boolean }) {
  return (
    <Link to="/" aria-label="Atelier home" style={{ display: "inline-flex" }}>
      <Brand size={28} compact={collapsed} />
    </Link>
  );
}

/**
 * Refine's sider: menu items come from the resources and each is wrapped in access control,
 * so ungranted modules are not listed. Sign-out lives in the header's user menu instead.
 */
export function AppSider(props: RefineThemedLayoutSiderProps) {
  return <ThemedSider {...props} Title={AppTitle} fixed render={({ items }) => items} />;
}
