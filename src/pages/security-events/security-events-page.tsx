import { getDefaultFilter, getDefaultSortOrder, List, useTable } from "@refinedev/antd";
import type { CrudFilter } from "@refinedev/core";
import { Button, DatePicker, Empty, Flex, Input, Select, Table, Tag, Tooltip, Typography } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { Link } from "react-router";
import {
  SECURITY_EVENT_LABELS,
  SECURITY_EVENT_TYPES,
  type SecurityEventRecord,
  type SecurityEventType,
} from "../../../schemas/security-events";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import { DEFAULT_PAGE_SIZE } from "../../lib/constants";
import { detectBrowser, detectDevice, UNKNOWN_BROWSER, UNKNOWN_DEVICE } from "../../lib/device";
import { loadFailed } from "../../lib/load-failure";
import { plural } from "../../lib/text";
import { describeEvent } from "./event-details";

/** Colours by severity: failures and lockouts stand out, access changes are noticeable. */
const TYPE_COLOURS: Partial<Record<SecurityEventType, string>> = {
  signin: "green",
  signin_failed: "orange",
  lockout: "red",
  user_disabled: "red",
  grant_changed: "geekblue",
  role_changed: "purple",
  device_revoked: "gold",
};

const TYPE_OPTIONS = SECURITY_EVENT_TYPES.map((value) => ({ value, label: SECURITY_EVENT_LABELS[value] }));

/** URL-synced filter values come back as strings or lists of them. */
const asList = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.length ? value.map(String) : undefined;
const asText = (value: unknown): string | undefined =>
  typeof value === "string" && value ? value : undefined;

/** "Chrome on Linux" from a user agent; the raw string when neither part is recognised (scripts, curl). */
function browserName(ua: string): string {
  const browser = detectBrowser(ua);
  const device = detectDevice(ua);
  if (browser === UNKNOWN_BROWSER && device === UNKNOWN_DEVICE) return ua;
  if (device === UNKNOWN_DEVICE) return browser;
  if (browser === UNKNOWN_BROWSER) return device;
  return `${browser} on ${device}`;
}

function Who({ email, id }: { email: string | null; id: string | null }) {
  if (!email) return <Typography.Text type="secondary">—</Typography.Text>;
  return id ? <Link to={`/users/show/${id}`}>{email}</Link> : <span>{email}</span>;
}

/**
 * `/users/security-log` (admins): sign-ins and failures, lockouts, resets, grant and role
 * changes, device revocations; newest first, filtered by type, email, IP and dates.
 */
export default function SecurityEventsPage() {
  const { tableProps, tableQuery, sorters, filters, setFilters, setCurrentPage } =
    useTable<SecurityEventRecord>({
      resource: "security-events",
      pagination: { pageSize: DEFAULT_PAGE_SIZE },
      sorters: { initial: [{ field: "created_at", order: "desc" }] },
      syncWithLocation: true,
      // A failure is shown in place of the table, not as a toast.
      errorNotification: false,
    });

  const change = (next: CrudFilter[]) => {
    setFilters(next, "merge");
    setCurrentPage(1);
  };
  const types = asList(getDefaultFilter("type", filters, "in"));
  const email = asText(getDefaultFilter("email", filters, "contains"));
  const ip = asText(getDefaultFilter("ip", filters, "startswith"));
  const range = getDefaultFilter("created_at", filters, "between");
  const dates: [Dayjs, Dayjs] | null =
    Array.isArray(range) && range.length === 2 ? [dayjs(range[0]), dayjs(range[1])] : null;
  const filtered = Boolean(types || email || ip || dates);
  // The search boxes keep their own text: remounting them empties them when the filters are cleared.
  const [searchKey, setSearchKey] = useState(0);
  const clearFilters = () => {
    setFilters([], "replace");
    setCurrentPage(1);
    setSearchKey((k) => k + 1);
  };

  return (
    <List title="Security log" headerButtons={() => null}>
      <Typography.Paragraph type="secondary">
        Sign-ins and failed attempts, lockouts, password resets, changes to access, roles and status, and
        devices signed out — with who did it, from which IP address and browser.
      </Typography.Paragraph>
      <Flex
        gap={12}
        wrap="wrap"
        style={{ marginBottom: 16 }}
        role="search"
        aria-label="Filter the security log"
      >
        <Select
          mode="multiple"
          aria-label="Filter by event type"
          placeholder="All events"
          allowClear
          value={types}
          options={TYPE_OPTIONS}
          onChange={(value: string[]) => change([{ field: "type", operator: "in", value }])}
          style={{ minWidth: 260 }}
          maxTagCount="responsive"
        />
        <Input.Search
          key={`email-${searchKey}`}
          aria-label="Filter by user email"
          placeholder="User or email"
          allowClear
          defaultValue={email}
          onSearch={(value) =>
            change([{ field: "email", operator: "contains", value: value.trim() || undefined }])
          }
          style={{ width: 240 }}
        />
        <Input.Search
          key={`ip-${searchKey}`}
          aria-label="Filter by IP address"
          placeholder="IP address"
          allowClear
          defaultValue={ip}
          onSearch={(value) =>
            change([{ field: "ip", operator: "startswith", value: value.trim() || undefined }])
          }
          style={{ width: 180 }}
        />
        <DatePicker.RangePicker
          aria-label="Filter by date"
          allowEmpty={[false, false]}
          value={dates}
          onChange={(value) =>
            change([
              {
                field: "created_at",
                operator: "between",
                value:
                  value?.[0] && value[1]
                    ? [value[0].startOf("day").toISOString(), value[1].endOf("day").toISOString()]
                    : undefined,
              },
            ])
          }
        />
      </Flex>
      {loadFailed(tableQuery) ? (
        <LoadError what="security log" error={tableQuery.error} onRetry={() => tableQuery.refetch()} />
      ) : (
        <Table<SecurityEventRecord>
          {...tableProps}
          rowKey="id"
          scroll={{ x: 1160 }}
          locale={{
            emptyText: (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={filtered ? "No security events match these filters" : "No security events yet"}
              >
                {filtered && <Button onClick={clearFilters}>Clear filters</Button>}
              </Empty>
            ),
          }}
          pagination={{
            ...tableProps.pagination,
            showSizeChanger: true,
            showTotal: (total) => plural(total, "event"),
          }}
        >
          <Table.Column<SecurityEventRecord>
            dataIndex="created_at"
            title="Time"
            width={190}
            onCell={() => ({ style: { whiteSpace: "nowrap" } })}
            sorter
            defaultSortOrder={getDefaultSortOrder("created_at", sorters)}
            render={(value: string) => <DateText value={value} />}
          />
          <Table.Column<SecurityEventRecord>
            dataIndex="type"
            title="Event"
            width={150}
            render={(type: SecurityEventType) => (
              <Tag color={TYPE_COLOURS[type]} style={{ whiteSpace: "normal", marginInlineEnd: 0 }}>
                {SECURITY_EVENT_LABELS[type] ?? type}
              </Tag>
            )}
          />
          <Table.Column<SecurityEventRecord>
            key="user"
            title="User"
            width={190}
            ellipsis
            render={(_, e) => <Who email={e.user_email ?? e.email} id={e.user_email ? e.user_id : null} />}
          />
          <Table.Column<SecurityEventRecord>
            key="actor"
            title="By"
            width={180}
            ellipsis
            render={(_, e) => {
              if (!e.actor_id) return <Typography.Text type="secondary">—</Typography.Text>;
              if (e.actor_id === e.user_id)
                return <Typography.Text type="secondary">themself</Typography.Text>;
              return <Who email={e.actor_email} id={e.actor_email ? e.actor_id : null} />;
            }}
          />
          <Table.Column<SecurityEventRecord>
            key="details"
            title="Details"
            render={(_, e) => describeEvent(e)}
          />
          <Table.Column<SecurityEventRecord>
            dataIndex="ip"
            title="IP address"
            width={120}
            render={(value: string | null) => value ?? <Typography.Text type="secondary">—</Typography.Text>}
          />
          <Table.Column<SecurityEventRecord>
            dataIndex="user_agent"
            title="Browser"
            width={170}
            ellipsis={{ showTitle: false }}
            render={(value: string | null) =>
              value ? (
                <Tooltip title={value} placement="topLeft">
                  <span>{browserName(value)}</span>
                </Tooltip>
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              )
            }
          />
        </Table>
      )}
    </List>
  );
}
