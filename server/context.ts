/** What services need from the running app; built once in app.ts and passed down. */

import type { CoreContext } from "./core-context";
import type { NotificationService } from "./notifications/notify";
import type { RunEngine } from "./runs";
import type { SmsService } from "./sms";
import type { WebhookService } from "./webhooks/webhooks";

export type { CoreContext } from "./core-context";

/** The bottom layer (core-context.ts) and the services built on it, which take only what they use of it. */
export interface AppContext extends CoreContext {
  /** Signed outbound webhooks of every module, with their delivery log. */
  webhooks: WebhookService;
  /** The notification centre: notify users in a transaction (bell, live push, mail by choice). */
  notifications: NotificationService;
  /** Durable runs of steps (sequences, automations), each step a job of `jobs`. */
  runs: RunEngine;
  /** SMS: stored in the SMS outbox, or sent through the configured provider (server/sms). */
  sms: SmsService;
}
