/**
 * The Atelier look: one brand colour, soft neutrals, slightly rounder corners than antd's
 * default. Shared by every screen through the root ConfigProvider (src/app.tsx), and by the
 * build, which makes antd's styles for it once (scripts/vite/antd-styles.ts): nothing here may
 * need the browser or Vite.
 */
import type { ThemeConfig } from "antd";

export const BRAND_PRIMARY = "#4f46e5";

export const theme: ThemeConfig = {
  // A fixed key (not one from React's useId): the build's styles and the browser's name the
  // same CSS variables' class (css-var-atelier).
  cssVar: { key: "atelier" },
  token: {
    colorPrimary: BRAND_PRIMARY,
    colorInfo: BRAND_PRIMARY,
    colorLink: BRAND_PRIMARY,
    colorBgLayout: "#f4f5fb",
    // antd's secondary and description greys (45% black) read at 3.4:1 on white and less on the
    // layout's grey; these keep WCAG AA's 4.5:1 on both (axe-core, tests/e2e/a11y.spec.ts).
    colorTextDescription: "rgba(0, 0, 0, 0.62)",
    colorTextTertiary: "rgba(0, 0, 0, 0.62)",
    // Placeholders are read too: 55% black keeps 4.5:1 on white (antd's 25% is 1.6:1).
    colorTextPlaceholder: "rgba(0, 0, 0, 0.55)",
    // Danger buttons and error text: antd's #ff4d4f is 3.3:1 on white; this is 5.2:1, and keeps
    // 4.5:1 on a hovered table row (#fafafa: a row's Delete), the layout's grey and error alerts.
    colorError: "#cc2f37",
    borderRadius: 8,
    fontFamily:
      "Inter, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
  components: {
    Layout: { headerBg: "#ffffff", siderBg: "#ffffff", headerPadding: "0 24px" },
    Menu: { itemBorderRadius: 8, itemSelectedBg: "#eef0ff", itemMarginInline: 8 },
    Card: { borderRadiusLG: 12 },
    Table: { headerBg: "#fafafd" },
    // A tag draws its colour's 7th shade on its 1st (a status tag: the status colour on its
    // light background). Where that reads under WCAG AA's 4.5:1 (green 3.4:1, gold 2.8:1,
    // orange, cyan, lime, volcano, yellow; success, warning and our error colour), the tag
    // takes the first darker shade that keeps it. Only tags: icons and alerts keep antd's.
    Tag: {
      green7: "#237804",
      gold7: "#874d00",
      orange7: "#ad4e00",
      cyan7: "#006d75",
      lime7: "#3f6600",
      volcano7: "#ad2102",
      yellow7: "#876800",
      colorSuccess: "#237804",
      colorWarning: "#874d00",
      colorError: "#cf1322",
    },
  },
};

/**
 * The same look without antd's motion, for people whose system asks for less (useReducedMotion).
 * Its CSS variables have a class of their own: under the app's, the build's stylesheet (which
 * holds the app theme's values, motion included) would win over the ones made at run time.
 */
export const reducedMotionTheme: ThemeConfig = {
  ...theme,
  cssVar: { key: "atelier-still" },
  token: { ...theme.token, motion: false },
};
