/**
 * What an open or a click of a CRM email does (issue 27), once its signed address was checked
 * (email-tracking.routes.ts). Every fetch counts on the message (`open_count`, `click_count`); the
 * events are the first open of a mail and the first click of each of its links: each is one
 * timeline entry ("Opened “Subject”", "Clicked example.com/pricing in “Subject”"), the client's
 * automation runs waiting for it go on and the automations it triggers start, in the transaction
 * that counts it. A click of a mail never seen opened (its images blocked) opens it too.
 *
 * Once-only: the message's row is locked first, so fetches of one mail are counted one after the
 * other on every instance; an event is new while the timeline has no entry under its dedupe key
 * (`email_opened:<message>`, `email_clicked:<message>:<hash of the link>`), the timeline's own
 * once-only record, kept as long as the entry. A mail program fetching the pixel at every look,
 * or a person clicking twice, adds to the counts and nothing else.
 */
import { createHash } from "node:crypto";
import type { Transaction } from "kysely";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { linkLabel } from "../../mail/tracking";
import { emailEngaged } from "../automation/crm-events";
import { addTimeline, timelineChanged } from "./timeline";

type Trx = Transaction<Database>;

interface TrackedMessage {
  id: string;
  client_id: string;
  subject: string | null;
}

const openKey = (messageId: string) => `email_opened:${messageId}`;
const clickKey = (messageId: string, url: string) =>
  `email_clicked:${messageId}:${createHash("sha256").update(url).digest("base64url").slice(0, 32)}`;

async function recorded(trx: Trx, dedupeKey: string): Promise<boolean> {
  const row = await trx
    .selectFrom("crm_timeline")
    .select("id")
    .where("dedupe_key", "=", dedupeKey)
    .executeTakeFirst();
  return row !== undefined;
}

/** The outgoing email, locked for this fetch; undefined when it is gone (its client deleted). */
async function lockMessage(trx: Trx, messageId: string): Promise<TrackedMessage | undefined> {
  return trx
    .selectFrom("crm_messages")
    .select(["id", "client_id", "subject"])
    .where("id", "=", messageId)
    .where("channel", "=", "email")
    .where("direction", "=", "out")
    .forUpdate()
    .executeTakeFirst();
}

/** The first open's effects, unless it was recorded; answers whether it was new. */
async function firstOpen(ctx: AppContext, trx: Trx, message: TrackedMessage, at: Date): Promise<boolean> {
  const key = openKey(message.id);
  if (await recorded(trx, key)) return false;
  const subject = message.subject ?? "";
  // Runs before the timeline: a step locks its run before the client's row (client-replied.ts).
  await emailEngaged(ctx, trx, "email-opened", {
    clientId: message.client_id,
    messageId: message.id,
    subject,
    at,
  });
  await addTimeline(trx, [
    {
      clientId: message.client_id,
      kind: "email_opened",
      title: `Opened “${subject}”`,
      data: { subject, messageId: message.id },
      refId: message.id,
      occurredAt: at,
      dedupeKey: key,
    },
  ]);
  return true;
}

/**
 * Runs `record` on the tracked mail, locked, in one transaction (nothing when it is not an
 * outgoing CRM email); when `record` added to the client's timeline, tells the client's page.
 */
async function onLockedMessage(
  ctx: AppContext,
  messageId: string,
  record: (trx: Trx, message: TrackedMessage, at: Date) => Promise<boolean>,
): Promise<void> {
  const at = new Date();
  const changed = await ctx.db.transaction().execute(async (trx) => {
    const message = await lockMessage(trx, messageId);
    if (!message) return null;
    return (await record(trx, message, at)) ? message.client_id : null;
  });
  if (changed) timelineChanged(ctx, [changed], null);
}

/** A fetch of the mail's pixel. */
export async function recordOpen(ctx: AppContext, messageId: string): Promise<void> {
  await onLockedMessage(ctx, messageId, async (trx, message, at) => {
    await trx
      .updateTable("crm_messages")
      .set((eb) => ({
        open_count: eb("open_count", "+", 1),
        opened_at: eb.fn.coalesce("opened_at", eb.val(at)),
      }))
      .where("id", "=", message.id)
      .execute();
    return firstOpen(ctx, trx, message, at);
  });
}

/** A follow of one of the mail's links (its address checked against the signature). */
export async function recordClick(ctx: AppContext, messageId: string, url: string): Promise<void> {
  await onLockedMessage(ctx, messageId, async (trx, message, at) => {
    await trx
      .updateTable("crm_messages")
      .set((eb) => ({
        click_count: eb("click_count", "+", 1),
        clicked_at: eb.fn.coalesce("clicked_at", eb.val(at)),
        // Clicked, so seen: an open its pixel could not count (images not shown).
        open_count: eb.fn("greatest", [eb.ref("open_count"), eb.lit(1)]),
        opened_at: eb.fn.coalesce("opened_at", eb.val(at)),
      }))
      .where("id", "=", message.id)
      .execute();
    let added = await firstOpen(ctx, trx, message, at);
    const key = clickKey(message.id, url);
    if (!(await recorded(trx, key))) {
      const subject = message.subject ?? "";
      await emailEngaged(ctx, trx, "email-clicked", {
        clientId: message.client_id,
        messageId: message.id,
        subject,
        url,
        at,
      });
      await addTimeline(trx, [
        {
          clientId: message.client_id,
          kind: "email_clicked",
          title: `Clicked ${linkLabel(url)} in “${subject}”`,
          data: { subject, url, messageId: message.id },
          refId: message.id,
          // After the open it may have recorded, on a timeline ordered by time.
          occurredAt: new Date(at.getTime() + 1),
          dedupeKey: key,
        },
      ]);
      added = true;
    }
    return added;
  });
}
