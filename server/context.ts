/** What services need from the running app; built once in app.ts and passed down. */

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
import type { NotificationService } from "./notifications";
import type { AccountEvents, ResourceEvents } from "./realtime/events";
import type { RunEngine } from "./runs";
import type { StorageDriver } from "./storage";
import type { WebhookService } from "./webhooks/webhooks";

export interface AppContext {
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
  /** Signed outbound webhooks of every module, with their delivery log. */
  webhooks: WebhookService;
  /** Durable runs of steps (sequences, automations), each step a job of `jobs`. */
  runs: RunEngine;
  /** The notification centre: notify users in a transaction (bell, live push, mail by choice). */
  notifications: NotificationService;
}
