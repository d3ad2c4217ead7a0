import { getDefaultFilter } from "@refinedev/antd";
import type { CrudFilter } from "@refinedev/core";
import { Flex, Input, Select } from "antd";
import { ROLE_LABELS, ROLES } from "../../../schemas/auth";

interface UserFiltersProps {
  filters: CrudFilter[];
  onChange: (filters: CrudFilter[]) => void;
}

const ROLE_OPTIONS = [ROLES.admin, ROLES.user].map((value) => ({ value, label: ROLE_LABELS[value] }));
const STATUS_OPTIONS = [
  { value: true, label: "Active" },
  { value: false, label: "Disabled" },
];

/** URL-synced values come back as strings; the selects want the typed values. */
const asNumber = (value: unknown): number | undefined =>
  value === undefined || value === null || value === "" ? undefined : Number(value);
const asBoolean = (value: unknown): boolean | undefined =>
  value === undefined || value === null || value === "" ? undefined : value === true || value === "true";

/** Search box (`q`) and role/status filters above the users table. */
export function UserFilters({ filters, onChange }: UserFiltersProps) {
  const q = getDefaultFilter("q", filters, "contains") as string | undefined;
  const role = asNumber(getDefaultFilter("role", filters, "eq"));
  const active = asBoolean(getDefaultFilter("active", filters, "eq"));

  return (
    <Flex gap={12} wrap="wrap" style={{ marginBottom: 16 }}>
      <Input.Search
        aria-label="Search users"
        placeholder="Search by name or email"
        allowClear
        defaultValue={q}
        onSearch={(value) =>
          onChange([{ field: "q", operator: "contains", value: value.trim() || undefined }])
        }
        style={{ width: 300 }}
      />
      <Select
        aria-label="Filter by role"
        placeholder="All roles"
        allowClear
        value={role}
        options={ROLE_OPTIONS}
        onChange={(value?: number) => onChange([{ field: "role", operator: "eq", value }])}
        style={{ width: 160 }}
      />
      <Select
        aria-label="Filter by status"
        placeholder="Any status"
        allowClear
        value={active}
        options={STATUS_OPTIONS}
        onChange={(value?: boolean) => onChange([{ field: "active", operator: "eq", value }])}
        style={{ width: 160 }}
      />
    </Flex>
  );
}
