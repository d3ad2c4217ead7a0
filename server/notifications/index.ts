/**
 * The notification centre (issue 16; docs/notifications.md): the header's bell, and mail for
 * those who want it. Modules send with `ctx.notifications.notify(trx, …)`; users read theirs
 * through `/api/notifications`.
 */
export { toNotification } from "./notification-records";
export { notificationRoutes } from "./notifications.routes";
export {
  moduleOfKind,
  type NotificationDelivery,
  NotificationService,
  type NotifyInput,
  type NotifyOptions,
  type NotifyResult,
  PUSH_JOB,
} from "./notify";
