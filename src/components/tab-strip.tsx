import { theme } from "antd";
import { type KeyboardEvent, type ReactNode, useRef } from "react";

export interface TabStripItem {
  key: string;
  label: ReactNode;
}

interface TabStripProps {
  items: readonly TabStripItem[];
  activeKey: string;
  onChange: (key: string) => void;
  "aria-label": string;
}

/**
 * A row of tabs that switch what one screen shows (a list's saved views), without panels of
 * their own: the WAI-ARIA tab pattern in a few lines, where antd's Tabs would add ~10 KB to a
 * screen's first load. The chosen tab is the one reached with Tab; the arrow keys, Home and End
 * move along and choose, as antd's do. A long row scrolls sideways.
 */
export function TabStrip({ items, activeKey, onChange, "aria-label": label }: TabStripProps) {
  const { token } = theme.useToken();
  const refs = useRef(new Map<string, HTMLButtonElement>());

  const move = (event: KeyboardEvent, index: number) => {
    const last = items.length - 1;
    const to =
      event.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : event.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (to === null) return;
    event.preventDefault();
    const key = items[to].key;
    refs.current.get(key)?.focus();
    onChange(key);
  };

  return (
    <div
      role="tablist"
      aria-label={label}
      style={{
        display: "flex",
        gap: token.marginLG,
        overflowX: "auto",
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
        minWidth: 0,
        flex: 1,
      }}
    >
      {items.map((item, index) => {
        const selected = item.key === activeKey;
        return (
          <button
            key={item.key}
            ref={(el) => {
              if (el) refs.current.set(item.key, el);
              else refs.current.delete(item.key);
            }}
            type="button"
            role="tab"
            aria-selected={selected}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(item.key)}
            onKeyDown={(event) => move(event, index)}
            style={{
              flex: "none",
              background: "none",
              border: "none",
              borderBottom: `2px solid ${selected ? token.colorPrimary : "transparent"}`,
              marginBottom: -1,
              padding: `${token.paddingXS}px 0`,
              cursor: "pointer",
              font: "inherit",
              fontSize: token.fontSize,
              color: selected ? token.colorPrimary : token.colorText,
              whiteSpace: "nowrap",
            }}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}
