/**
 * Each user's calendar connection (spec §3 `calendarAuth`): a CalDAV account checked before it
 * is saved, its app password sealed by the secret box, the calendar meetings go to, and how the
 * last check or use went — `failing` tells the user to reconnect.
 */
import type { Selectable } from "kysely";
import { sql } from "kysely";
import type {
  CalendarChoice,
  CalendarConnection,
  ConnectCalendarRequest,
} from "../../../../schemas/crm-calendar";
import { isoOrNull as iso } from "../../../../src/lib/dates";
import type { AppContext } from "../../../context";
import type { CrmCalendarConnectionsTable } from "../../../db/types-crm-calendar";
import { badRequest, conflict, HttpError, notFound } from "../../../http/errors";
import { CalDavClient, type CalDavCredentials, CalDavError, type CalDavProblem } from "./caldav";

type Row = Selectable<CrmCalendarConnectionsTable>;

/** Which field of the connection form a CalDAV problem is about. */
const FIELD_OF: Readonly<Record<CalDavProblem, string>> = {
  auth: "password",
  refused: "url",
  unreachable: "url",
  not_caldav: "url",
  no_calendar: "url",
  rejected: "url",
};

const parseCalendars = (v: unknown): CalendarChoice[] =>
  (typeof v === "string" ? JSON.parse(v) : v) as CalendarChoice[];

const NONE: CalendarConnection = {
  status: "none",
  serverUrl: null,
  username: null,
  calendarUrl: null,
  calendarName: null,
  calendars: [],
  lastCheckedAt: null,
  lastError: null,
  connectedAt: null,
};

/** The answer's shape: everything but the password. */
function toConnection(row: Row | undefined): CalendarConnection {
  if (!row) return NONE;
  return {
    status: row.status,
    serverUrl: row.server_url,
    username: row.username,
    calendarUrl: row.calendar_url,
    calendarName: row.calendar_name,
    calendars: parseCalendars(row.calendars),
    lastCheckedAt: iso(row.last_checked_at),
    lastError: row.last_error,
    connectedAt: iso(row.created_at),
  };
}

/** A typed URL as the server keeps it, or the words saying why it is not one. */
function checkedUrl(text: string): string {
  const words = "Calendar server URL must be a full address such as https://caldav.example.com";
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw badRequest(words, [{ field: "url", message: words }]);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw badRequest(words, [{ field: "url", message: words }]);
  if (url.username || url.password) {
    const message = "Calendar server URL must not hold a user name or password: use the fields below it";
    throw badRequest(message, [{ field: "url", message }]);
  }
  return url.href;
}

export class CalendarConnections {
  constructor(private readonly ctx: AppContext) {}

  /** The secret box binds a sealed password to its owner's row. */
  private static sealedFor(userId: string): string {
    return `crm_calendar_connections.password:${userId}`;
  }

  private client(credentials: CalDavCredentials): CalDavClient {
    return new CalDavClient(credentials, { allowPrivate: this.ctx.config.outboundAllowPrivate });
  }

  private row(userId: string): Promise<Row | undefined> {
    return this.ctx.db
      .selectFrom("crm_calendar_connections")
      .selectAll()
      .where("user_id", "=", userId)
      .executeTakeFirst();
  }

  async get(userId: string): Promise<CalendarConnection> {
    return toConnection(await this.row(userId));
  }

  /** Checks the account, then saves it (a new connection, or re-authorising the one there). */
  async connect(userId: string, input: ConnectCalendarRequest): Promise<CalendarConnection> {
    const serverUrl = checkedUrl(input.url);
    const username = input.username.trim();
    let account: Awaited<ReturnType<CalDavClient["discover"]>>;
    try {
      account = await this.client({ serverUrl, username, password: input.password }).discover();
    } catch (error) {
      if (!(error instanceof CalDavError)) throw error;
      throw badRequest(error.message, [{ field: FIELD_OF[error.problem], message: error.message }]);
    }
    const calendar = input.calendarUrl
      ? account.calendars.find((c) => sameUrl(c.url, input.calendarUrl as string))
      : account.calendars[0];
    if (!calendar) {
      const message = "Calendar is not one of this account's calendars";
      throw badRequest(message, [{ field: "calendarUrl", message }]);
    }
    const values = {
      server_url: serverUrl,
      username,
      password_sealed: this.ctx.secrets.seal(input.password, CalendarConnections.sealedFor(userId)),
      principal_url: account.principalUrl,
      home_url: account.homeUrl,
      calendars: JSON.stringify(account.calendars),
      calendar_url: calendar.url,
      calendar_name: calendar.name,
      status: "connected" as const,
      last_checked_at: sql<Date>`now()`,
      last_error: null,
      updated_at: sql<Date>`now()`,
    };
    const row = await this.ctx.db
      .insertInto("crm_calendar_connections")
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
    return toConnection(row);
  }

  /** Meetings go to another of the account's calendars (as found at the last check). */
  async choose(userId: string, calendarUrl: string): Promise<CalendarConnection> {
    const row = await this.row(userId);
    if (!row) throw notFound("No calendar is connected");
    const calendar = parseCalendars(row.calendars).find((c) => sameUrl(c.url, calendarUrl));
    if (!calendar) {
      const message = "Calendar is not one of this account's calendars";
      throw badRequest(message, [{ field: "calendarUrl", message }]);
    }
    const updated = await this.ctx.db
      .updateTable("crm_calendar_connections")
      .set({ calendar_url: calendar.url, calendar_name: calendar.name, updated_at: sql<Date>`now()` })
      .where("user_id", "=", userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toConnection(updated);
  }

  /** Checks the saved connection again; the answer says how it went (200 either way). */
  async test(userId: string): Promise<CalendarConnection> {
    const row = await this.row(userId);
    if (!row) throw notFound("No calendar is connected");
    let problem: string | null = null;
    let calendars = parseCalendars(row.calendars);
    try {
      calendars = (await this.client(this.credentialsOf(row)).discover()).calendars;
      if (!calendars.some((c) => sameUrl(c.url, row.calendar_url)))
        problem = `The calendar "${row.calendar_name}" is no longer on the server: choose another`;
    } catch (error) {
      if (!(error instanceof CalDavError)) throw error;
      problem = error.message;
    }
    const updated = await this.ctx.db
      .updateTable("crm_calendar_connections")
      .set({
        calendars: JSON.stringify(calendars),
        status: problem ? "failing" : "connected",
        last_error: problem,
        last_checked_at: sql<Date>`now()`,
      })
      .where("user_id", "=", userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toConnection(updated);
  }

  /** Forgets the connection (and its password). Meetings booked stay, as do their events. */
  async disconnect(userId: string): Promise<void> {
    const gone = await this.ctx.db
      .deleteFrom("crm_calendar_connections")
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!gone.numDeletedRows) throw notFound("No calendar is connected");
  }

  private credentialsOf(row: Row): CalDavCredentials {
    return {
      serverUrl: row.server_url,
      username: row.username,
      password: this.ctx.secrets.open(row.password_sealed, CalendarConnections.sealedFor(row.user_id)),
    };
  }

  /** The user's calendar to write meetings to, or a 409 telling them to connect one. */
  async open(userId: string): Promise<{ client: CalDavClient; calendarUrl: string }> {
    const row = await this.row(userId);
    if (!row) throw conflict("Connect your calendar first (CRM › Calendar)");
    return { client: this.client(this.credentialsOf(row)), calendarUrl: row.calendar_url };
  }

  /** A write to the calendar went through: a connection marked failing works again. */
  async worked(userId: string): Promise<void> {
    await this.ctx.db
      .updateTable("crm_calendar_connections")
      .set({ status: "connected", last_error: null, last_checked_at: sql<Date>`now()` })
      .where("user_id", "=", userId)
      .where("status", "=", "failing")
      .execute();
  }

  /**
   * A CalDAV failure met while booking or cancelling, as the HTTP error to answer; the
   * connection is marked failing when the account itself is the problem.
   */
  async failed(userId: string, error: unknown): Promise<HttpError> {
    if (!(error instanceof CalDavError)) throw error;
    if (error.problem === "auth" || error.problem === "unreachable" || error.problem === "refused") {
      await this.ctx.db
        .updateTable("crm_calendar_connections")
        .set({ status: "failing", last_error: error.message, last_checked_at: sql<Date>`now()` })
        .where("user_id", "=", userId)
        .execute();
    }
    // The calendar server failed, not the request: a gateway error, with the reason in words.
    return new HttpError(502, error.message);
  }
}

/** Calendar URLs compared as the server may spell them (trailing slash, escapes). */
function sameUrl(a: string, b: string): boolean {
  const norm = (u: string) => {
    try {
      return decodeURIComponent(new URL(u).href).replace(/\/+$/, "");
    } catch {
      return u;
    }
  };
  return norm(a) === norm(b);
}
