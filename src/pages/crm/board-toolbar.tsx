/**
 * The board's filters — search, owner, expected close between two days — kept in the address
 * with the tab, so a filtered board can be reloaded and shared; and the open pipeline's figures.
 */
import { SearchOutlined } from "@ant-design/icons";
import { Input, Select } from "antd";
import { useEffect, useState } from "react";
import { type BoardColumn, type BoardOwner, NO_OWNER } from "../../../schemas/crm-board";
import { plural } from "../../lib/text";
import { DateRangeFilter } from "../../resources/list/range-filters";
import { totalsText } from "./board-column";
import { boardTotals } from "./board-state";

/** The filters as the address holds them; `owner` may be "me". */
export interface BoardFilterValues {
  q?: string;
  owner?: string;
  from?: string;
  to?: string;
}

/** The address's owner for "opportunities I own". */
export const OWNER_ME = "me";

/** How long typing may pause before the search runs. */
const SEARCH_DELAY_MS = 300;

interface BoardToolbarProps {
  values: BoardFilterValues;
  onChange: (values: BoardFilterValues) => void;
  owners: readonly BoardOwner[];
  columns: readonly BoardColumn[];
  truncated: boolean;
}

export function BoardToolbar({ values, onChange, owners, columns, truncated }: BoardToolbarProps) {
  const [text, setText] = useState(values.q ?? "");
  // The address changed from elsewhere (back, a link): the box follows.
  useEffect(() => setText(values.q ?? ""), [values.q]);
  useEffect(() => {
    if (text === (values.q ?? "")) return;
    const timer = setTimeout(() => onChange({ ...values, q: text || undefined }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, values, onChange]);

  const { count, totals } = boardTotals(columns);
  const filtered = Boolean(values.q || values.owner || values.from || values.to);
  return (
    <div className="pb-toolbar">
      <div className="pb-filters">
        <Input
          allowClear
          prefix={<SearchOutlined aria-hidden />}
          placeholder="Search title or client"
          aria-label="Search opportunities"
          value={text}
          onChange={(e) => setText(e.target.value)}
          style={{ width: 240 }}
        />
        <Select
          aria-label="Owner"
          style={{ width: 190 }}
          value={values.owner ?? ""}
          onChange={(owner) => onChange({ ...values, owner: owner || undefined })}
          options={[
            { value: "", label: "Any owner" },
            { value: OWNER_ME, label: "Mine" },
            { value: NO_OWNER, label: "No owner" },
            ...owners.map((o) => ({ value: o.id, label: o.name })),
          ]}
          showSearch
          optionFilterProp="label"
        />
        <DateRangeFilter
          title="Expected close"
          granularity="day"
          value={[values.from, values.to]}
          onChange={([from, to]) => onChange({ ...values, from, to })}
        />
      </div>
      <output className="pb-summary" aria-live="polite">
        <strong>
          {plural(
            count,
            filtered ? "matching opportunity" : "open opportunity",
            filtered ? "matching opportunities" : "open opportunities",
          )}
        </strong>
        {totals.length > 0 && (
          <>
            <span title={totalsText(totals, "value", false)}>{totalsText(totals, "value")}</span>
            <span
              className="pb-weighted"
              title={`Weighted by each stage's chance: ${totalsText(totals, "weighted", false)}`}
            >
              weighted {totalsText(totals, "weighted")}
            </span>
          </>
        )}
        {truncated && (
          <span className="pb-truncated">
            Showing the first 10,000 cards: narrow the filters to see the rest
          </span>
        )}
      </output>
    </div>
  );
}
