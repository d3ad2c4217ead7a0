/**
 * Meetings booked with a client: the event goes into the organiser's own calendar over CalDAV
 * (the client as ATTENDEE, the user as ORGANIZER), an ICS invitation is mailed to the client,
 * and the meeting is stored and put on the client's timeline. Consistent on failure: the
 * calendar is written first, and when it refuses nothing is stored or mailed; when storing then
 * fails, the event is taken out of the calendar again.
 */
import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import { sql } from "kysely";
import {
  type BookMeetingRequest,
  MAX_MEETING_MINUTES,
  type Meeting,
  type MeetingStatus,
} from "../../../../schemas/crm-calendar";
import { meetingWhen } from "../../../../src/lib/meeting-time";
import type { AppContext } from "../../../context";
import type { CrmMeetingsTable } from "../../../db/types-crm-calendar";
import { badRequest, notFound } from "../../../http/errors";
import { type ListQuery, listPage } from "../../../http/list-query";
import { addTimeline, timelineChanged } from "../timeline";
import type { CalendarConnections } from "./connection.service";
import { buildCalendar, type IcsEvent } from "./ics";
import { invitationMail } from "./invitation";
import { isLocalDateTime, normaliseTimeZone, zonedToInstant } from "./zoned-time";

export interface MeetingListQuery extends ListQuery {
  clientId?: string;
  /** Only meetings still to come (not ended, not cancelled), soonest first. */
  upcoming?: boolean;
}

type Row = Selectable<CrmMeetingsTable> & { client_name: string };

const field = (name: string, message: string) => badRequest(message, [{ field: name, message }]);

/** A meeting time as sent: a clock time in `timeZone`, or an instant with its offset. Null when no such day. */
export function meetingInstant(text: string, timeZone: string): Date | null {
  const [, y, mo, d] = /^(\d{4})-(\d{2})-(\d{2})/.exec(text) ?? [];
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d)) return null;
  if (/T(2[4-9]|[3-9]\d)|:[6-9]\d/.test(text)) return null;
  const instant = isLocalDateTime(text) ? zonedToInstant(text, timeZone) : new Date(text);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

function toMeeting(r: Row): Meeting {
  return {
    id: r.id,
    clientId: r.client_id,
    clientName: r.client_name,
    title: r.title,
    description: r.description,
    location: r.location,
    startsAt: new Date(r.starts_at).toISOString(),
    endsAt: new Date(r.ends_at).toISOString(),
    timeZone: r.time_zone,
    attendeeEmail: r.attendee_email,
    status: r.status,
    uid: r.uid,
    eventUrl: r.event_url,
    createdAt: new Date(r.created_at).toISOString(),
    cancelledAt: r.cancelled_at ? new Date(r.cancelled_at).toISOString() : null,
  };
}

export class Meetings {
  constructor(
    private readonly ctx: AppContext,
    private readonly connections: CalendarConnections,
  ) {}

  private query() {
    return this.ctx.db
      .selectFrom("crm_meetings as m")
      .innerJoin("clients as c", "c.id", "m.client_id")
      .selectAll("m")
      .select("c.name as client_name");
  }

  /** The input's times, zone and client, checked; a 400 naming the field otherwise. */
  private async checked(input: BookMeetingRequest) {
    const timeZone = normaliseTimeZone(input.timeZone);
    if (!timeZone)
      throw field("timeZone", "Time zone must be a time zone such as Europe/Paris or Asia/Kolkata");
    const start = meetingInstant(input.startsAt, timeZone);
    if (!start) throw field("startsAt", "Start is not a real date and time");
    if (input.endsAt !== undefined && input.durationMinutes !== undefined)
      throw field("endsAt", "End: give an end or a duration, not both");
    let end: Date | null;
    if (input.endsAt !== undefined) {
      end = meetingInstant(input.endsAt, timeZone);
      if (!end) throw field("endsAt", "End is not a real date and time");
    } else if (input.durationMinutes !== undefined) {
      end = new Date(start.getTime() + input.durationMinutes * 60_000);
    } else throw field("endsAt", "End: give an end time or a duration");
    if (end <= start) throw field("endsAt", "End must be after the start");
    if (end.getTime() - start.getTime() > MAX_MEETING_MINUTES * 60_000)
      throw field("endsAt", "A meeting may last at most 14 days");
    // A few minutes' grace: the time picked a moment ago, booked now.
    if (start.getTime() < Date.now() - 5 * 60_000) throw field("startsAt", "Start must be in the future");
    const client = await this.ctx.db
      .selectFrom("clients")
      .select(["id", "name", "email"])
      .where("id", "=", input.clientId)
      .executeTakeFirst();
    if (!client) throw field("clientId", "Client does not exist");
    if (!client.email) throw field("clientId", "This client has no email address to send the invitation to");
    return { timeZone, start, end, client: { ...client, email: client.email } };
  }

  async book(userId: string, input: BookMeetingRequest): Promise<Meeting> {
    const { timeZone, start, end, client } = await this.checked(input);
    const organiser = await this.ctx.db
      .selectFrom("users")
      .select(["email", "first_name", "last_name"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    const { client: dav, calendarUrl } = await this.connections.open(userId);
    const id = randomUUID();
    const event: IcsEvent = {
      uid: `${id}@${new URL(this.ctx.config.publicUrl).hostname}`,
      sequence: 0,
      stamp: new Date(),
      start,
      end,
      timeZone,
      summary: input.title.trim(),
      description: input.description?.trim() || null,
      location: input.location?.trim() || null,
      organizer: { email: organiser.email, name: `${organiser.first_name} ${organiser.last_name}`.trim() },
      attendees: [{ email: client.email, name: client.name }],
      status: "CONFIRMED",
    };

    let stored: { url: string; etag: string | null };
    try {
      stored = await dav.createEvent(
        calendarUrl,
        `${id}.ics`,
        buildCalendar(event, { clientSchedules: true }),
      );
    } catch (error) {
      throw await this.connections.failed(userId, error);
    }
    await this.connections.worked(userId);

    try {
      await this.ctx.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("crm_meetings")
          .values({
            id,
            user_id: userId,
            client_id: client.id,
            title: event.summary,
            description: event.description ?? null,
            location: event.location ?? null,
            starts_at: start,
            ends_at: end,
            time_zone: timeZone,
            attendee_email: client.email,
            uid: event.uid,
            calendar_url: calendarUrl,
            event_url: stored.url,
            etag: stored.etag,
          })
          .execute();
        await addTimeline(trx, [
          {
            clientId: client.id,
            kind: "meeting",
            title: `Meeting booked: ${event.summary}`,
            body: meetingWhen(start, end, timeZone),
            data: {
              meetingId: id,
              status: "scheduled",
              startsAt: start.toISOString(),
              endsAt: end.toISOString(),
              timeZone,
            },
            refId: id,
            actorId: userId,
            dedupeKey: `meeting:${id}:booked`,
          },
        ]);
        await this.ctx.mailer.queue([invitationMail(event, organiser.email, "REQUEST")], trx);
      });
    } catch (error) {
      // Not stored: the event must not stay behind in the calendar either.
      await dav.deleteEvent(stored.url, stored.etag).catch((err) => {
        this.ctx.log.warn(
          { err, eventUrl: stored.url },
          "meeting not stored; its calendar event could not be removed",
        );
      });
      throw error;
    }
    this.afterChange(client.id, userId);
    return this.get(userId, id);
  }

  private afterChange(clientId: string, userId: string) {
    timelineChanged(this.ctx, [clientId], userId);
    this.ctx.mailer.wake();
  }

  /** One of the user's own meetings (another user's is not found). */
  async get(userId: string, id: string): Promise<Meeting> {
    const row = await this.query().where("m.id", "=", id).where("m.user_id", "=", userId).executeTakeFirst();
    if (!row) throw notFound("Meeting not found");
    return toMeeting(row);
  }

  /** The user's meetings, by the list contract; `clientId` and `upcoming` narrow them. */
  async list(userId: string, query: MeetingListQuery): Promise<{ data: Meeting[]; total: number }> {
    let q = this.query().where("m.user_id", "=", userId);
    if (query.clientId) q = q.where("m.client_id", "=", query.clientId);
    if (query.upcoming) q = q.where("m.status", "=", "scheduled").where("m.ends_at", ">", sql<Date>`now()`);
    const { rows, total } = await listPage(this.ctx.db, q, query, {
      table: "m",
      defaultSort: query.upcoming ? "starts_at" : "-starts_at",
      sortFields: ["starts_at", "ends_at", "created_at", "title", "status"],
      filterFields: {
        status: "string",
        client_id: "uuid",
        starts_at: "date",
        ends_at: "date",
        title: "string",
      },
      search: ["title"],
    });
    return { data: rows.map(toMeeting), total };
  }

  /**
   * Cancels a meeting: the event leaves the organiser's calendar, the client gets a CANCEL
   * (SEQUENCE one higher, so their calendar drops it), the timeline says so. Cancelling again
   * changes nothing.
   */
  async cancel(userId: string, id: string): Promise<Meeting> {
    const row = await this.query().where("m.id", "=", id).where("m.user_id", "=", userId).executeTakeFirst();
    if (!row) throw notFound("Meeting not found");
    if (row.status === ("cancelled" satisfies MeetingStatus)) return toMeeting(row);
    const { client: dav } = await this.connections.open(userId);
    try {
      await dav.deleteEvent(row.event_url, row.etag);
    } catch (error) {
      throw await this.connections.failed(userId, error);
    }
    const organiser = await this.ctx.db
      .selectFrom("users")
      .select(["email", "first_name", "last_name"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    const start = new Date(row.starts_at);
    const end = new Date(row.ends_at);
    const event: IcsEvent = {
      uid: row.uid,
      sequence: row.sequence + 1,
      stamp: new Date(),
      start,
      end,
      timeZone: row.time_zone,
      summary: row.title,
      description: row.description,
      location: row.location,
      organizer: { email: organiser.email, name: `${organiser.first_name} ${organiser.last_name}`.trim() },
      attendees: [{ email: row.attendee_email, name: row.client_name }],
      status: "CANCELLED",
    };
    const changed = await this.ctx.db.transaction().execute(async (trx) => {
      // Two cancels at once: the one that flips the status tells the client, the other nothing.
      const flipped = await trx
        .updateTable("crm_meetings")
        .set({
          status: "cancelled",
          sequence: event.sequence,
          cancelled_at: sql<Date>`now()`,
          updated_at: sql<Date>`now()`,
        })
        .where("id", "=", id)
        .where("status", "=", "scheduled")
        .executeTakeFirst();
      if (!flipped.numUpdatedRows) return false;
      await addTimeline(trx, [
        {
          clientId: row.client_id,
          kind: "meeting",
          title: `Meeting cancelled: ${row.title}`,
          body: meetingWhen(start, end, row.time_zone),
          data: { meetingId: id, status: "cancelled" },
          refId: id,
          actorId: userId,
          dedupeKey: `meeting:${id}:cancelled`,
        },
      ]);
      await this.ctx.mailer.queue([invitationMail(event, organiser.email, "CANCEL")], trx);
      return true;
    });
    if (changed) this.afterChange(row.client_id, userId);
    return this.get(userId, id);
  }
}
