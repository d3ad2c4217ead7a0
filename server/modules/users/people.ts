/**
 * People: the users of the platform as other records see them (an owner, an assignee; the
 * `users` relation target, resources/contract.ts USERS_RELATION), named by their first and last
 * name. Anyone signed in may pick one, so only what a picker needs is answered — id, name and
 * email of active users — never roles, grants or devices (those stay with the admin's users API).
 */
import { type RawBuilder, sql } from "kysely";
import type { AppContext } from "../../context";
import { type ListQuery, listPage } from "../../http/list-query";

/**
 * A user's name in SQL, as records show it: first and last name (over the `users` table, or
 * the table aliased `alias`).
 */
export const personName = (alias?: string): RawBuilder<string> => {
  const col = (name: string) => sql.ref(alias ? `${alias}.${name}` : name);
  return sql<string>`trim(${col("first_name")} || ' ' || ${col("last_name")})`;
};

export interface Person {
  id: string;
  name: string;
  email: string;
}

/** Active users through the list contract: search by name or email, filter by id, sort by name. */
export async function listPeople(ctx: AppContext, query: ListQuery) {
  const people = ctx.db
    .selectFrom("users as u")
    .select(["u.id", personName("u").as("name"), "u.email"])
    .where("u.active", "=", true)
    .as("t");
  const { rows, total, totalExact } = await listPage(
    ctx.db,
    ctx.db.selectFrom(people).selectAll("t"),
    query,
    {
      table: "t",
      defaultSort: "name",
      sortFields: ["name", "email"],
      filterFields: { id: "uuid", name: "string", email: "string" },
      search: ["name", "email"],
    },
  );
  return { data: rows as Person[], total, totalExact };
}
