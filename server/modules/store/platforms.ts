/**
 * Commerce platforms behind one small interface, keyed by the spec's platform id (§9: 13 is
 * BigCommerce): another platform is one more adapter here. The store module asks a platform to
 * check a store's access (the connection test); sync, carts and webhooks join as they are built.
 */
import { BIGCOMMERCE, type PlatformId } from "../../../schemas/store";
import type { Config } from "../../config";
import { BigCommerceError, bigCommerce } from "./bigcommerce";

export interface StoreAccess {
  storeHash: string;
  token: string;
}

/** A check that failed: the words for a person, and the field of the form they are about. */
export class StoreProblem extends Error {
  constructor(
    message: string,
    readonly field: "storeHash" | "token" | null,
  ) {
    super(message);
  }
}

export interface CommercePlatform {
  id: PlatformId;
  name: string;
  /** The store as it introduces itself; StoreProblem when it cannot be reached or refuses. */
  check(access: StoreAccess): Promise<{ storeName: string; currency: string }>;
}

function bigCommercePlatform(config: Config): CommercePlatform {
  const client = (access: StoreAccess) =>
    bigCommerce({
      ...access,
      apiUrl: config.bigcommerceApiUrl,
      // The origin is the operator's (BIGCOMMERCE_API_URL), never a user's: the private-address
      // policy guards the addresses users give (webhooks, HTTP steps, calendars). The store hash
      // a user gives is a path segment of it, encoded.
      allowPrivate: true,
      // A person waits on a check: a store out of quota is told, not waited for.
      maxRateLimited: 1,
      maxWaitMs: 5000,
      // Nor held for half a minute by a store that does not answer.
      timeoutMs: 10_000,
    });
  return {
    id: BIGCOMMERCE,
    name: "BigCommerce",
    async check(access) {
      try {
        const store: unknown = await client(access).store();
        const { name, currency } = (store ?? {}) as { name?: unknown; currency?: unknown };
        if (typeof name !== "string" || typeof currency !== "string")
          throw new StoreProblem("The store answered with something that is not a store's profile", null);
        return { storeName: name, currency };
      } catch (error) {
        if (!(error instanceof BigCommerceError)) throw error;
        if (error.status === 401 || error.status === 403)
          throw new StoreProblem(
            "BigCommerce refused this API token: check it, and that its account may read the store",
            "token",
          );
        if (error.status === 404)
          throw new StoreProblem("No BigCommerce store answers to this store hash", "storeHash");
        // The store's own words may quote the token back: never pass it on.
        throw new StoreProblem(error.message.split(access.token).join("[token]"), null);
      }
    },
  };
}

/** The platforms this build speaks, by id. */
export function commercePlatforms(config: Config): ReadonlyMap<PlatformId, CommercePlatform> {
  return new Map([[BIGCOMMERCE, bigCommercePlatform(config)]]);
}
