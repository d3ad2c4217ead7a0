/**
 * The app's bottom layer: what app.ts builds first, from the configuration and the database,
 * before the services that send and run (context.ts adds those to make the AppContext).
 *
 * A service that the AppContext itself holds (the webhook sender, the notification centre) or
 * that they use (the shared cache) is handed a Pick of this, not the AppContext: so it does not
 * import context.ts, which names it back, and server/ reads from the bottom up
 * (tests/unit/import-cycles.test.ts).
 */

import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { PrincipalCache } from "./auth/principal-cache";
import type { TokenService } from "./auth/tokens";
import type { Config } from "./config";
import type { Database } from "./db";
import type { Broadcast } from "./db/broadcast";
import type { JobQueue } from "./jobs";
import type { Mailer } from "./mail/mailer";
import type { DamEvents } from "./modules/dam/events";
import type { AccountEvents, ResourceEvents } from "./realtime/events";
import type { SecretBox } from "./security/secret-box";
import type { StorageDriver } from "./storage";

export interface CoreContext {
  config: Config;
  db: Kysely<Database>;
  tokens: TokenService;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Resource changes, published after each committed write (live updates). */
  events: ResourceEvents;
  /** Grant, role and session changes of a user, pushed live to that user's sockets. */
  accountEvents: AccountEvents;
  /** Recently checked sessions; forget a user's or session's entry on any change to them. */
  principals: PrincipalCache;
  /** Messages to every instance on the database (cache invalidation). */
  broadcast: Broadcast;
  /** Files of every module (local folder or S3). */
  storage: StorageDriver;
  /** Asset manager changes, pushed on the `/dam` socket namespace. */
  damEvents: DamEvents;
  /** The durable job queue (PDF processing, …), started with the app. */
  jobs: JobQueue;
  /** Seals secrets kept at rest (calendar passwords, store API tokens) and opens them again. */
  secrets: SecretBox;
}
