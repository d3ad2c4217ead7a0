import { HomeOutlined } from "@ant-design/icons";
import { useBreadcrumb, useLink } from "@refinedev/core";
import { Breadcrumb } from "antd";
import { withoutRepeats } from "./breadcrumb-trail";

/**
 * The pages' breadcrumb (Refine's `options.breadcrumb`): Refine's trail of resource parents
 * with a repeated level shown once ("Products › Products" is "Products"), and no icons, so
 * each crumb is named by its words alone. Nothing when the trail has a single level.
 */
export function AppBreadcrumb() {
  const { breadcrumbs } = useBreadcrumb();
  const Link = useLink();
  const trail = withoutRepeats(breadcrumbs);
  if (trail.length < 2) return null;
  return (
    <Breadcrumb
      items={[
        {
          key: "home",
          title: (
            <Link to="/" aria-label="Home">
              <HomeOutlined aria-hidden />
            </Link>
          ),
        },
        ...trail.map(({ label, href }, i) => ({
          key: `${i}-${label}`,
          title: href ? <Link to={href}>{label}</Link> : <span>{label}</span>,
        })),
      ]}
    />
  );
}
