/**
 * The CRM's calendar (issue 16, spec §3 `calendarAuth`) and meetings: what the connection and
 * meeting routes take and answer, shared by the server's route schemas and the SPA's screens.
 */

/** A connection works (`connected`), or its last check or use failed (`failing`: reconnect). */
export const CONNECTION_STATUSES = ["connected", "failing"] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** A booked meeting is on (`scheduled`) until cancelled. */
export const MEETING_STATUSES = ["scheduled", "cancelled"] as const;
export type MeetingStatus = (typeof MEETING_STATUSES)[number];

/** A calendar of the account that holds events. */
export interface CalendarChoice {
  url: string;
  name: string;
  color: string | null;
}

/** `GET /crm/calendar/connection`: the signed-in user's own; the password never leaves the server. */
export interface CalendarConnection {
  status: ConnectionStatus | "none";
  serverUrl: string | null;
  username: string | null;
  /** The calendar meetings go to. */
  calendarUrl: string | null;
  calendarName: string | null;
  calendars: CalendarChoice[];
  lastCheckedAt: string | null;
  /** Why the last check or use failed, in words (null when it worked). */
  lastError: string | null;
  connectedAt: string | null;
}

export interface ConnectCalendarRequest {
  url: string;
  username: string;
  password: string;
  /** One of the account's calendars; the first that holds events when left out. */
  calendarUrl?: string;
}

export interface Meeting {
  id: string;
  clientId: string;
  clientName: string;
  title: string;
  description: string | null;
  location: string | null;
  /** ISO instants (UTC). */
  startsAt: string;
  endsAt: string;
  /** IANA zone the meeting was booked in; the invitation's times are in it. */
  timeZone: string;
  attendeeEmail: string;
  status: MeetingStatus;
  uid: string;
  /** The event in the organiser's calendar. */
  eventUrl: string;
  createdAt: string;
  cancelledAt: string | null;
}

export interface BookMeetingRequest {
  clientId: string;
  title: string;
  /** `2026-12-01T10:00` (a clock time in `timeZone`) or an instant with its offset (`…Z`, `…+05:30`). */
  startsAt: string;
  /** As `startsAt`; or give `durationMinutes`. */
  endsAt?: string;
  durationMinutes?: number;
  timeZone: string;
  location?: string;
  description?: string;
}

/** Where a calendar app's CalDAV lives, for the connection screen's help and the docs. */
export const CALDAV_PRESETS: ReadonlyArray<{ name: string; url: string; hint: string }> = [
  {
    name: "iCloud",
    url: "https://caldav.icloud.com",
    hint: "Your Apple ID email and an app-specific password (appleid.apple.com → Sign-In and Security)",
  },
  {
    name: "Fastmail",
    url: "https://caldav.fastmail.com/dav/",
    hint: "Your Fastmail address and an app password with CalDAV access (Settings → Privacy & Security)",
  },
  {
    name: "Nextcloud",
    url: "https://<your host>/remote.php/dav",
    hint: "Your Nextcloud user name and an app password (Settings → Security → Devices & sessions)",
  },
  {
    name: "Radicale and others",
    url: "https://<your host>/",
    hint: "The server's address, your user name and password",
  },
];

/** Longest meeting accepted, minutes (two weeks: a workshop, not a booking mistake). */
export const MAX_MEETING_MINUTES = 14 * 24 * 60;

/** A date-time as the meeting routes take it: a clock time, or an instant with its offset. */
export const MEETING_TIME_PATTERN =
  "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})?$";

const meetingTime = (title: string) =>
  ({
    type: "string",
    title,
    maxLength: 40,
    pattern: MEETING_TIME_PATTERN,
    "x-patternMessage": "must be a date and time such as 2026-12-01T10:00",
  }) as const;

/** Body of `PUT /crm/calendar/connection`. */
export const connectCalendarBodySchema = {
  type: "object",
  additionalProperties: false,
  required: ["url", "username", "password"],
  properties: {
    url: { type: "string", title: "Calendar server URL", minLength: 1, maxLength: 2000 },
    username: { type: "string", title: "User name", minLength: 1, maxLength: 320, pattern: "\\S" },
    password: { type: "string", title: "App password", minLength: 1, maxLength: 1000 },
    calendarUrl: { type: "string", title: "Calendar", minLength: 1, maxLength: 2000 },
  },
} as const;

/** Body of `PATCH /crm/calendar/connection`: another of the account's calendars. */
export const chooseCalendarBodySchema = {
  type: "object",
  additionalProperties: false,
  required: ["calendarUrl"],
  properties: { calendarUrl: connectCalendarBodySchema.properties.calendarUrl },
} as const;

/** Body of `POST /crm/meetings`. */
export const bookMeetingBodySchema = {
  type: "object",
  additionalProperties: false,
  required: ["clientId", "title", "startsAt", "timeZone"],
  properties: {
    clientId: { type: "string", title: "Client", format: "uuid" },
    title: { type: "string", title: "Title", minLength: 1, maxLength: 200, pattern: "\\S" },
    startsAt: meetingTime("Start"),
    endsAt: meetingTime("End"),
    durationMinutes: { type: "integer", title: "Duration", minimum: 5, maximum: MAX_MEETING_MINUTES },
    timeZone: { type: "string", title: "Time zone", minLength: 1, maxLength: 64 },
    location: { type: "string", title: "Location", maxLength: 300 },
    description: { type: "string", title: "Description", maxLength: 5000 },
  },
} as const;
