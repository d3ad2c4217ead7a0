/**
 * The viewer's icons as small inline SVGs (no icon library in this bundle): the five hotspot
 * button icons of spec §9, and the controls' own.
 */
import type { ReactNode } from "react";
import type { LinkButton } from "../../schemas/pdf-library";

function Svg({ children, size = 20 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

/** The hotspot button icons, by their spec §9 names. */
export const BUTTON_ICON_PATHS: Record<LinkButton["icon"], ReactNode> = {
  "Add-1": <path d="M12 5v14M5 12h14" />,
  "Add-2": (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 8v8M8 12h8" />
    </>
  ),
  "Add-3": (
    <>
      <path d="M3 4h2l2.2 10.2a1 1 0 0 0 1 .8h8.9a1 1 0 0 0 1-.8L20 8H7" />
      <circle cx="9" cy="19.5" r="1.3" />
      <circle cx="17" cy="19.5" r="1.3" />
      <path d="M13.5 9.5v4M11.5 11.5h4" />
    </>
  ),
  "External Link": (
    <>
      <path d="M14 4h6v6M20 4l-9 9" />
      <path d="M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </>
  ),
  Play: <path d="M8 5.5v13l11-6.5z" fill="currentColor" />,
};

export const ButtonIcon = ({ icon, size }: { icon: LinkButton["icon"]; size?: number }) => (
  <Svg size={size}>{BUTTON_ICON_PATHS[icon] ?? BUTTON_ICON_PATHS["External Link"]}</Svg>
);

const UI_PATHS = {
  cart: (
    <>
      <path d="M3 4h2l2.2 10.2a1 1 0 0 0 1 .8h8.9a1 1 0 0 0 1-.8L20 8H7" />
      <circle cx="9" cy="19.5" r="1.3" />
      <circle cx="17" cy="19.5" r="1.3" />
    </>
  ),
  close: <path d="M6 6l12 12M18 6L6 18" />,
  fit: <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />,
  minus: <path d="M5 12h14" />,
  next: <path d="M9 5l7 7-7 7" />,
  plus: <path d="M12 5v14M5 12h14" />,
  previous: <path d="M15 5l-7 7 7 7" />,
  search: (
    <>
      <circle cx="11" cy="11" r="6.5" />
      <path d="M16 16l4.5 4.5" />
    </>
  ),
  trash: <path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6" />,
  zoomIn: (
    <>
      <circle cx="11" cy="11" r="6.5" />
      <path d="M16 16l4.5 4.5M11 8.5v5M8.5 11h5" />
    </>
  ),
  zoomOut: (
    <>
      <circle cx="11" cy="11" r="6.5" />
      <path d="M16 16l4.5 4.5M8.5 11h5" />
    </>
  ),
};

export type UiIconName = keyof typeof UI_PATHS;

export const Icon = ({ name, size }: { name: UiIconName; size?: number }) => (
  <Svg size={size}>{UI_PATHS[name]}</Svg>
);
