/**
 * The app's name and logo; its antd theme lives in antd-theme.ts (the build reads it too).
 */
export { BRAND_PRIMARY, reducedMotionTheme, theme } from "./antd-theme";

/** The public folder, served under the app base (`/manage/images/...`). */
export const LOGO_URL = `${import.meta.env.BASE_URL}images/logo.svg`;

export const APP_NAME = "Atelier";
