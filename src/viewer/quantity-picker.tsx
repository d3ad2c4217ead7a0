/** A quantity: − and + buttons around a number box. */
import { useEffect, useState } from "react";
import { MAX_QUANTITY } from "./cart";
import { Icon } from "./icons";

export interface QuantityPickerProps {
  /** The number box's accessible name. */
  label: string;
  /** Names the − and + buttons ("Fewer <itemName>"). */
  itemName: string;
  value: number;
  min?: number;
  onChange(value: number): void;
}

export function QuantityPicker({ label, itemName, value, min = 1, onChange }: QuantityPickerProps) {
  const [draft, setDraft] = useState(String(value));
  useEffect(() => setDraft(String(value)), [value]);
  const commit = (next: number) => {
    const clamped = Math.min(MAX_QUANTITY, Math.max(min, Number.isFinite(next) ? next : value));
    setDraft(String(clamped));
    if (clamped !== value) onChange(clamped);
  };
  return (
    <div className="vw-quantity">
      <button
        type="button"
        className="vw-icon-btn"
        aria-label={`Fewer ${itemName}`}
        disabled={value <= min}
        onClick={() => commit(value - 1)}
      >
        <Icon name="minus" size={16} />
      </button>
      <input
        aria-label={label}
        inputMode="numeric"
        pattern="[0-9]*"
        value={draft}
        onChange={(event) => {
          const digits = event.target.value.replace(/\D/g, "").slice(0, 3);
          setDraft(digits);
          if (digits) commit(Number(digits));
        }}
        onBlur={() => commit(Number.parseInt(draft, 10))}
      />
      <button
        type="button"
        className="vw-icon-btn"
        aria-label={`More ${itemName}`}
        disabled={value >= MAX_QUANTITY}
        onClick={() => commit(value + 1)}
      >
        <Icon name="plus" size={16} />
      </button>
    </div>
  );
}
