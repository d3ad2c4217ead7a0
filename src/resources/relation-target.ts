/**
 * Where a relation's records are read. A resource's own (its Refine resource and service base),
 * or, for a user (an owner, an assignee: resources/contract.ts USERS_RELATION), the people
 * endpoint `GET /api/people` (server/modules/users/people.ts): active users by name, open to
 * anyone signed in, while the users admin API is for administrators. Pure.
 */
import { USERS_RELATION } from "../../resources/contract";

export interface RelationTarget {
  /** The Refine resource whose list, many and one calls the widgets make. */
  resource: string;
  /** Its data provider (service base); undefined: the registered resource's own. */
  dataProviderName?: string;
  /** What one of them is called in a sentence ("Choose a person"). */
  singular?: string;
}

/**
 * @example
 * relationTarget("users");      // { resource: "people", dataProviderName: "default", singular: "person" }
 * relationTarget("categories"); // { resource: "categories" }
 */
export function relationTarget(resource: string): RelationTarget {
  if (resource === USERS_RELATION)
    return { resource: "people", dataProviderName: "default", singular: "person" };
  return { resource };
}
