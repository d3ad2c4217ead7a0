import { getDefaultSortOrder, List, useTable } from "@refinedev/antd";
import { useGetIdentity } from "@refinedev/core";
import { Empty, Table, Tag, Tooltip, Typography } from "antd";
import { Link } from "react-router";
import { MODULES } from "../../../resources/modules";
import { type MeResponse, ROLE_LABELS, type UserRecord } from "../../../schemas/auth";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import { DEFAULT_PAGE_SIZE } from "../../lib/constants";
import { loadFailed } from "../../lib/load-failure";
import { plural } from "../../lib/text";
import { TruncatedText } from "../../resources/list/truncated-text";
import { SecondFactorPolicyButton } from "./second-factor-policy-button";
import { UserActions } from "./user-actions";
import { UserFilters } from "./user-filters";

/** Column widths: an email of about 30 characters shows whole; both status tags fit side by side. */
const NAME_WIDTH = 180;
const EMAIL_WIDTH = 260;
const STATUS_WIDTH = 210;
const ACTIONS_WIDTH = 200;
/** Role, plan, modules and last seen, fixed. */
const OTHER_WIDTHS = 90 + 120 + 110 + 190;
const TABLE_WIDTH = NAME_WIDTH + EMAIL_WIDTH + STATUS_WIDTH + ACTIONS_WIDTH + OTHER_WIDTHS;

const moduleNames = (ids: readonly number[]): string =>
  MODULES.filter((m) => ids.includes(m.moduleID))
    .map((m) => m.name)
    .join(", ");

/** `/users`: every user, with search, role/status filters, sorting and paging (10 a page). */
export default function UserListPage() {
  const { data: me } = useGetIdentity<MeResponse>();
  const { tableProps, tableQuery, sorters, filters, setFilters, setCurrentPage } = useTable<UserRecord>({
    resource: "users",
    pagination: { pageSize: DEFAULT_PAGE_SIZE },
    sorters: { initial: [{ field: "created_at", order: "desc" }] },
    syncWithLocation: true,
    // A failure is shown in place of the table, not as a toast over an empty one.
    errorNotification: false,
  });

  const filtered = filters.some((f) => "field" in f && f.value !== undefined && f.value !== "");

  return (
    <List
      title="Users"
      headerButtons={({ defaultButtons }) => (
        <>
          <SecondFactorPolicyButton />
          {defaultButtons}
        </>
      )}
    >
      <UserFilters
        filters={filters}
        onChange={(next) => {
          setFilters(next, "merge");
          setCurrentPage(1);
        }}
      />
      {loadFailed(tableQuery) ? (
        <LoadError what="users" error={tableQuery.error} onRetry={() => tableQuery.refetch()} />
      ) : (
        <Table<UserRecord>
          {...tableProps}
          rowKey="id"
          scroll={{ x: TABLE_WIDTH }}
          locale={{
            emptyText: <Empty description={filtered ? "No users match these filters" : "No users yet"} />,
          }}
          pagination={{
            ...tableProps.pagination,
            showSizeChanger: true,
            showTotal: (total) => plural(total, "user"),
          }}
        >
          <Table.Column<UserRecord>
            dataIndex="first_name"
            title="Name"
            width={NAME_WIDTH}
            sorter
            defaultSortOrder={getDefaultSortOrder("first_name", sorters)}
            render={(_, user) => {
              const name = `${user.first_name} ${user.last_name}`.trim();
              return (
                <TruncatedText
                  text={name}
                  render={(shown, cut) => (
                    <Link to={`/users/show/${user.id}`} aria-label={cut ? name : undefined}>
                      {shown}
                    </Link>
                  )}
                />
              );
            }}
          />
          <Table.Column<UserRecord>
            dataIndex="email"
            title="Email"
            width={EMAIL_WIDTH}
            sorter
            render={(email: string) => <TruncatedText text={email} />}
            defaultSortOrder={getDefaultSortOrder("email", sorters)}
          />
          <Table.Column<UserRecord>
            dataIndex="role"
            title="Role"
            width={90}
            sorter
            defaultSortOrder={getDefaultSortOrder("role", sorters)}
            render={(role: UserRecord["role"]) => (
              <Tag color={role === 2 ? "geekblue" : "default"}>{ROLE_LABELS[role] ?? role}</Tag>
            )}
          />
          <Table.Column<UserRecord>
            dataIndex="plan_type"
            title="Plan"
            width={120}
            sorter
            defaultSortOrder={getDefaultSortOrder("plan_type", sorters)}
          />
          <Table.Column<UserRecord>
            dataIndex="active"
            title="Status"
            width={STATUS_WIDTH}
            sorter
            defaultSortOrder={getDefaultSortOrder("active", sorters)}
            render={(active: boolean, user) => (
              <>
                {active ? <Tag color="green">Active</Tag> : <Tag color="red">Disabled</Tag>}
                {user.invite_pending && <Tag color="gold">Invitation pending</Tag>}
              </>
            )}
          />
          <Table.Column<UserRecord>
            dataIndex="modules"
            title="Modules"
            width={110}
            render={(ids: number[]) => (
              <Tooltip title={moduleNames(ids) || "No modules"}>
                <Typography.Text>{ids.length}</Typography.Text>
              </Tooltip>
            )}
          />
          <Table.Column<UserRecord>
            dataIndex="last_seen_at"
            title="Last seen"
            width={190}
            onCell={() => ({ style: { whiteSpace: "nowrap" } })}
            render={(value: string | null) => <DateText value={value} />}
          />
          <Table.Column<UserRecord>
            key="actions"
            title="Actions"
            fixed="right"
            width={ACTIONS_WIDTH}
            render={(_, user) => <UserActions user={user} isSelf={user.id === me?.userID} />}
          />
        </Table>
      )}
    </List>
  );
}
