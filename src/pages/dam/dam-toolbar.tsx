/** The row above the items: select all, search, sort and grid or list, the last two remembered. */
import { AppstoreOutlined, UnorderedListOutlined } from "@ant-design/icons";
import { Checkbox, Flex, Input, Segmented, Select, Space } from "antd";
import { useState } from "react";
import { type AssetSort, SORT_OPTIONS } from "./dam-logic";

export type DamView = "grid" | "list";

const VIEW_KEY = "atelier.dam.view";
const SORT_KEY = "atelier.dam.sort";

const stored = <T extends string>(key: string, allowed: readonly T[], fallback: T): T => {
  const value = typeof localStorage === "undefined" ? null : localStorage.getItem(key);
  return allowed.includes(value as T) ? (value as T) : fallback;
};

/** A choice kept in this browser's storage under `key`. */
function useStoredChoice<T extends string>(key: string, allowed: readonly T[], fallback: T) {
  const [value, setValue] = useState<T>(() => stored(key, allowed, fallback));
  const choose = (next: T) => {
    setValue(next);
    localStorage.setItem(key, next);
  };
  return [value, choose] as const;
}

/** The view and sort, as last chosen in this browser. */
export function useDamDisplay() {
  const [view, setView] = useStoredChoice<DamView>(VIEW_KEY, ["grid", "list"], "grid");
  const [sort, setSort] = useStoredChoice<AssetSort>(
    SORT_KEY,
    SORT_OPTIONS.map((o) => o.value),
    "name",
  );
  return { view, setView, sort, setSort };
}

interface DamToolbarProps extends ReturnType<typeof useDamDisplay> {
  q: string;
  onSearch: (text: string) => void;
  /** How many items are shown and how many of them are selected. */
  shown: number;
  selected: number;
  onToggleAll: () => void;
}

export function DamToolbar({
  q,
  onSearch,
  shown,
  selected,
  onToggleAll,
  view,
  setView,
  sort,
  setSort,
}: DamToolbarProps) {
  const allSelected = shown > 0 && selected === shown;
  return (
    <Flex justify="space-between" align="center" wrap gap={8}>
      <Space wrap>
        <Checkbox
          checked={allSelected}
          indeterminate={selected > 0 && !allSelected}
          disabled={!shown}
          onChange={onToggleAll}
        >
          Select all
        </Checkbox>
        <Input.Search
          key={q}
          defaultValue={q}
          allowClear
          placeholder="Search by name or #tag"
          aria-label="Search assets"
          style={{ width: 300 }}
          onSearch={(value) => onSearch(value.trim())}
        />
      </Space>
      <Space wrap>
        <Select<AssetSort>
          aria-label="Sort by"
          value={sort}
          options={SORT_OPTIONS.map((o) => ({ ...o }))}
          style={{ width: 160 }}
          onChange={setSort}
        />
        <Segmented<DamView>
          aria-label="View"
          value={view}
          onChange={setView}
          options={[
            { value: "grid", icon: <AppstoreOutlined />, title: "Grid" },
            { value: "list", icon: <UnorderedListOutlined />, title: "List" },
          ]}
        />
      </Space>
    </Flex>
  );
}
