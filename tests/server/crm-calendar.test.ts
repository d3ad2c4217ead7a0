/**
 * The CRM's calendar against a real CalDAV server (Radicale on loopback, tests/server/radicale.ts)
 * and a real SMTP server: connecting (a wrong password, an unreachable or non-CalDAV address, the
 * password sealed at rest and never answered), re-authorising, booking a meeting (the event read
 * back from Radicale, the invitation with its ICS mailed, the timeline), listing, cancelling, and
 * one user's meetings hidden from another.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODULE_IDS } from "../../resources/modules";
import type { CalendarConnection, Meeting } from "../../schemas/crm-calendar";
import { CalDavClient } from "../../server/modules/crm/calendar/caldav";
import { ADMIN, DRIVERS, startServer, type TestServer } from "./harness";
import { startRadicale, type TestRadicale } from "./radicale";
import { startSmtp, type TestSmtp } from "./smtp";

type Details = { message: string; details?: Array<{ field: string; message: string }> };
const AUTH_WORDS = "The calendar server refused the user name or app password";
const unfold = (ics: string) => ics.replace(/\r\n /g, "");
/** A clock time some days ahead, as the booking dialog sends it. */
const daysAhead = (days: number, time: string) =>
  `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T${time}`;

describe.each(DRIVERS)("CRM calendar and meetings on %s", (driver) => {
  let s: TestServer;
  let dav: TestRadicale;
  let smtp: TestSmtp;
  let admin: string;
  let bob: string;
  let workUrl: string;
  let personalUrl: string;
  let client: { id: string; email: string };
  let meeting: Meeting;

  const connect = (token: string, body: Record<string, unknown>) =>
    s.api<CalendarConnection & Details>("PUT", "/crm/calendar/connection", { token, body });
  const book = (token: string, body: Record<string, unknown>) =>
    s.api<Meeting & Details>("POST", "/crm/meetings", { token, body });
  const outbox = (to: string) =>
    s.database.db
      .selectFrom("mail_outbox")
      .selectAll()
      .where("to_address", "=", to)
      .orderBy("created_at")
      .execute();
  const counts = async () => ({
    meetings: Number(
      (
        await s.database.db
          .selectFrom("crm_meetings")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    mails: (await outbox(client.email)).length,
    timeline: Number(
      (
        await s.database.db
          .selectFrom("crm_timeline")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("kind", "=", "meeting")
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });

  beforeAll(async () => {
    dav = await startRadicale({ alice: "alice-app-pass", bob: "bob-app-pass" });
    workUrl = await dav.makeCalendar("alice", "work", "Work");
    personalUrl = await dav.makeCalendar("alice", "personal", "Personal");
    await dav.makeCalendar("bob", "main", "Main");
    smtp = await startSmtp();
    // Radicale is on loopback: the outbound policy must allow private targets here.
    s = await startServer(driver, { OUTBOUND_ALLOW_PRIVATE: "true", SMTP_URL: smtp.url });
    admin = (await s.signIn()).accessToken;
    const made = await s.api("POST", "/api/users", {
      token: admin,
      body: {
        first_name: "Bob",
        last_name: "Booker",
        email: "bob@example.com",
        password: "Bob-passw0rd!",
        role: 3,
        modules: [MODULE_IDS.crm],
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    bob = (
      await s.signIn("bob@example.com", "Bob-passw0rd!", { deviceId: "bob-1", deviceName: "Linux Chrome" })
    ).accessToken;
    const created = await s.api<{ id: string; email: string }>("POST", "/crm/clients", {
      token: admin,
      body: { name: "Asha Patel", email: "Asha@Example.com" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    client = created.body;
  });
  afterAll(async () => {
    await s?.close();
    await dav?.close();
    await smtp?.close();
  });

  it("has no connection at first, and cannot book without one", async () => {
    const none = await s.api<CalendarConnection>("GET", "/crm/calendar/connection", { token: admin });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ status: "none", calendars: [], serverUrl: null });
    const refused = await book(admin, {
      clientId: client.id,
      title: "Intro",
      startsAt: daysAhead(3, "10:00"),
      durationMinutes: 30,
      timeZone: "UTC",
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/Connect your calendar/);
  });

  it("refuses a wrong password with 400 on the password field, and stores nothing", async () => {
    const res = await connect(admin, { url: dav.url, username: "alice", password: "wrong" });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(AUTH_WORDS);
    expect(res.body.details).toEqual([{ field: "password", message: AUTH_WORDS }]);
    expect(await s.database.db.selectFrom("crm_calendar_connections").selectAll().execute()).toEqual([]);
  });

  it("says when the address is unreachable, not CalDAV, or not a URL (400 on url)", async () => {
    const closed = await connect(admin, { url: "http://127.0.0.1:1/", username: "alice", password: "x" });
    expect(closed.status).toBe(400);
    expect(closed.body.details).toEqual([
      { field: "url", message: "The calendar server could not be reached: it refused the connection" },
    ]);
    // Atelier itself answers HTTP, but not as CalDAV.
    const notDav = await connect(admin, { url: `${s.baseUrl}/manage/`, username: "alice", password: "x" });
    expect(notDav.status).toBe(400);
    expect(notDav.body.details?.[0]).toEqual({
      field: "url",
      message: "This address does not answer as a CalDAV server (no calendar home was found)",
    });
    const notUrl = await connect(admin, { url: "caldav.example.com", username: "alice", password: "x" });
    expect(notUrl.status).toBe(400);
    expect(notUrl.body.details?.[0]).toMatchObject({
      field: "url",
      message: expect.stringMatching(/full address/),
    });
  });

  it("refuses private addresses when configuration does not allow them (the outbound policy)", async () => {
    const client = new CalDavClient(
      { serverUrl: dav.url, username: "alice", password: "alice-app-pass" },
      { allowPrivate: false },
    );
    await expect(client.discover()).rejects.toMatchObject({
      problem: "refused",
      message: expect.stringMatching(/private, loopback/),
    });
  });

  it("connects: calendars listed, the first chosen, the password sealed at rest and never answered", async () => {
    const res = await connect(admin, { url: dav.url, username: "alice", password: "alice-app-pass" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      status: "connected",
      serverUrl: dav.url,
      username: "alice",
      calendarUrl: workUrl,
      calendarName: "Work",
      lastError: null,
    });
    expect(res.body.calendars.map((c) => c.name).sort()).toEqual(["Personal", "Work"]);
    expect(JSON.stringify(res.body)).not.toContain("alice-app-pass");
    const read = await s.api<CalendarConnection>("GET", "/crm/calendar/connection", { token: admin });
    expect(JSON.stringify(read.body)).not.toContain("alice-app-pass");
    expect(read.body.status).toBe("connected");

    const row = await s.database.db
      .selectFrom("crm_calendar_connections")
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(row.password_sealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain("alice-app-pass");
    expect(s.ctx.secrets.open(row.password_sealed, `crm_calendar_connections.password:${row.user_id}`)).toBe(
      "alice-app-pass",
    );
  });

  it("lets the user pick another of the account's calendars, and only those", async () => {
    const other = await s.api<CalendarConnection>("PATCH", "/crm/calendar/connection", {
      token: admin,
      body: { calendarUrl: personalUrl },
    });
    expect(other.body).toMatchObject({ calendarUrl: personalUrl, calendarName: "Personal" });
    const foreign = await s.api<Details>("PATCH", "/crm/calendar/connection", {
      token: admin,
      body: { calendarUrl: `${dav.url}bob/main/` },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.details).toEqual([
      { field: "calendarUrl", message: "Calendar is not one of this account's calendars" },
    ]);
    const back = await s.api<CalendarConnection>("PATCH", "/crm/calendar/connection", {
      token: admin,
      body: { calendarUrl: workUrl },
    });
    expect(back.body.calendarName).toBe("Work");
  });

  it("refuses bad meeting input per field, storing and mailing nothing", async () => {
    const before = await counts();
    const base = {
      clientId: client.id,
      title: "Intro",
      startsAt: daysAhead(3, "10:00"),
      durationMinutes: 30,
      timeZone: "Europe/Paris",
    };
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ timeZone: "Mars/Olympus" }, "timeZone", /Time zone must be a time zone/],
      [{ startsAt: "2026-02-30T10:00" }, "startsAt", /not a real date/],
      [{ startsAt: "2020-01-01T10:00" }, "startsAt", /in the future/],
      [{ durationMinutes: undefined }, "endsAt", /end time or a duration/],
      [{ durationMinutes: undefined, endsAt: daysAhead(3, "09:00") }, "endsAt", /after the start/],
      [{ startsAt: "tomorrow" }, "startsAt", /date and time such as/],
      [{ clientId: "00000000-0000-4000-8000-000000000000" }, "clientId", /does not exist/],
    ];
    for (const [change, fieldName, words] of cases) {
      const res = await book(admin, { ...base, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.details?.[0]?.field, JSON.stringify(res.body)).toBe(fieldName);
      expect(res.body.details?.[0]?.message).toMatch(words);
    }
    const noEmail = await s.api<{ id: string }>("POST", "/crm/clients", {
      token: admin,
      body: { name: "No Mail" },
    });
    const res = await book(admin, { ...base, clientId: noEmail.body.id });
    expect(res.body.details).toEqual([
      { field: "clientId", message: "This client has no email address to send the invitation to" },
    ]);
    expect(await counts()).toEqual(before);
  });

  it("books a meeting: the CalDAV event is created in Radicale and read back", async () => {
    const startsAt = daysAhead(7, "10:00");
    const res = await book(admin, {
      clientId: client.id,
      title: "Intro call; pricing, next steps",
      startsAt,
      durationMinutes: 45,
      timeZone: "Europe/Paris",
      location: "Video call",
      description: "Agenda:\n1. Needs\n2. Pricing",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    meeting = res.body;
    expect(meeting).toMatchObject({
      clientId: client.id,
      clientName: "Asha Patel",
      attendeeEmail: "asha@example.com",
      status: "scheduled",
      timeZone: "Europe/Paris",
    });
    expect(meeting.eventUrl.startsWith(workUrl)).toBe(true);
    expect(new Date(meeting.endsAt).getTime() - new Date(meeting.startsAt).getTime()).toBe(45 * 60_000);

    const stored = await dav.request("alice", meeting.eventUrl);
    expect(stored.status).toBe(200);
    const ics = unfold(await stored.text());
    expect(ics).toContain(`UID:${meeting.uid}`);
    expect(ics).toContain("SUMMARY:Intro call\\; pricing\\, next steps");
    expect(ics).toContain(`DTSTART;TZID=Europe/Paris:${startsAt.replace(/[-:]/g, "")}00`);
    expect(ics).toMatch(/ATTENDEE;[^\r\n]*CN=Asha Patel[;:][^\r\n]*mailto:asha@example\.com/);
    expect(ics).toContain(`ORGANIZER;CN=Admin User:mailto:${ADMIN.email}`);
    expect(ics).not.toContain("METHOD:");
  });

  it("mails the client an invitation with the ICS (METHOD:REQUEST) and puts the meeting on the timeline", async () => {
    const [mail] = await outbox("asha@example.com");
    expect(mail).toMatchObject({ calendar_method: "REQUEST", reply_to: ADMIN.email });
    expect(mail.subject).toMatch(
      /^Invitation: Intro call; pricing, next steps \(.+10:00–10:45 \(Europe\/Paris\)\)$/,
    );
    const ics = unfold(mail.calendar_ics ?? "");
    expect(ics).toContain("METHOD:REQUEST");
    expect(ics).toContain(`UID:${meeting.uid}`);
    expect(ics).toContain("SEQUENCE:0");
    expect(ics).toMatch(/ATTENDEE;[^\r\n]*RSVP=TRUE[^\r\n]*:mailto:asha@example\.com/);
    // Delivered over SMTP as a text/calendar part that mail apps offer to accept.
    await expect
      .poll(() => smtp.received.find((m) => m.includes(meeting.uid)), { timeout: 20_000 })
      .toBeTruthy();
    const sent = smtp.received.find((m) => m.includes(meeting.uid)) ?? "";
    expect(sent).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/i);

    const timeline = await s.api<{ data: Array<{ kind: string; title: string; ref_id: string }> }>(
      "GET",
      `/crm/clients/${client.id}/timeline?kind=meeting`,
      { token: admin },
    );
    expect(timeline.body.data).toEqual([
      expect.objectContaining({
        kind: "meeting",
        title: "Meeting booked: Intro call; pricing, next steps",
        ref_id: meeting.id,
      }),
    ]);
  });

  it("lists a client's upcoming meetings, and reads one", async () => {
    const upcoming = await s.api<{ data: Meeting[]; total: number }>(
      "GET",
      `/crm/meetings?clientId=${client.id}&upcoming=true`,
      { token: admin },
    );
    expect(upcoming.status).toBe(200);
    expect(upcoming.body).toMatchObject({ total: 1, data: [{ id: meeting.id, title: meeting.title }] });
    const one = await s.api<Meeting>("GET", `/crm/meetings/${meeting.id}`, { token: admin });
    expect(one.body).toEqual(meeting);
  });

  it("keeps one user's meetings from another: not listed, not read, not cancelled", async () => {
    const list = await s.api<{ data: Meeting[]; total: number }>(
      "GET",
      `/crm/meetings?clientId=${client.id}`,
      {
        token: bob,
      },
    );
    expect(list.body).toEqual({ data: [], total: 0 });
    expect((await s.api("GET", `/crm/meetings/${meeting.id}`, { token: bob })).status).toBe(404);
    expect((await s.api("POST", `/crm/meetings/${meeting.id}/cancel`, { token: bob })).status).toBe(404);
    // Bob has no connection of his own, and sees none of Alice's.
    expect(
      (await s.api<CalendarConnection>("GET", "/crm/calendar/connection", { token: bob })).body.status,
    ).toBe("none");
    expect((await dav.request("alice", meeting.eventUrl)).status).toBe(200);
  });

  it("cancels: the event leaves the calendar, the client gets METHOD:CANCEL, the timeline says so", async () => {
    const res = await s.api<Meeting>("POST", `/crm/meetings/${meeting.id}/cancel`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "cancelled", cancelledAt: expect.any(String) });
    expect((await dav.request("alice", meeting.eventUrl)).status).toBe(404);
    const mails = await outbox("asha@example.com");
    expect(mails).toHaveLength(2);
    expect(mails[1]).toMatchObject({ calendar_method: "CANCEL" });
    expect(mails[1].subject).toMatch(/^Cancelled: /);
    const ics = unfold(mails[1].calendar_ics ?? "");
    expect(ics).toContain("METHOD:CANCEL");
    expect(ics).toContain(`UID:${meeting.uid}`);
    expect(ics).toContain("SEQUENCE:1");
    expect(ics).toContain("STATUS:CANCELLED");

    // Once: cancelling again changes and mails nothing.
    const again = await s.api<Meeting>("POST", `/crm/meetings/${meeting.id}/cancel`, { token: admin });
    expect(again.body.status).toBe("cancelled");
    expect(await outbox("asha@example.com")).toHaveLength(2);
    const upcoming = await s.api<{ total: number }>(
      "GET",
      `/crm/meetings?clientId=${client.id}&upcoming=true`,
      {
        token: admin,
      },
    );
    expect(upcoming.body.total).toBe(0);
    const timeline = await s.api<{ data: Array<{ title: string }> }>(
      "GET",
      `/crm/clients/${client.id}/timeline?kind=meeting`,
      {
        token: admin,
      },
    );
    expect(timeline.body.data.map((e) => e.title)).toEqual([
      "Meeting cancelled: Intro call; pricing, next steps",
      "Meeting booked: Intro call; pricing, next steps",
    ]);
  });

  it("stores and mails nothing when the calendar refuses the event", async () => {
    const before = await counts();
    // The chosen calendar is deleted on the server (from another app): the PUT fails.
    await dav.request("alice", personalUrl, { method: "DELETE" });
    await s.api("PATCH", "/crm/calendar/connection", { token: admin, body: { calendarUrl: personalUrl } });
    const res = await book(admin, {
      clientId: client.id,
      title: "Lost",
      startsAt: daysAhead(5, "09:00"),
      durationMinutes: 30,
      timeZone: "UTC",
    });
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/^The calendar server did not take the event/);
    expect(await counts()).toEqual(before);
    // A check says the calendar is gone.
    const checked = await s.api<CalendarConnection>("POST", "/crm/calendar/connection/test", {
      token: admin,
    });
    expect(checked.body).toMatchObject({
      status: "failing",
      lastError: 'The calendar "Personal" is no longer on the server: choose another',
    });
    await s.api("PATCH", "/crm/calendar/connection", { token: admin, body: { calendarUrl: workUrl } });
  });

  it("shows a revoked app password as failing, and is re-authorised with the new one", async () => {
    dav.setPassword("alice", "alice-new-pass");
    const checked = await s.api<CalendarConnection>("POST", "/crm/calendar/connection/test", {
      token: admin,
    });
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ status: "failing", lastError: AUTH_WORDS });
    const failed = await book(admin, {
      clientId: client.id,
      title: "Retry",
      startsAt: daysAhead(5, "09:00"),
      durationMinutes: 30,
      timeZone: "UTC",
    });
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe(AUTH_WORDS);

    const again = await connect(admin, {
      url: dav.url,
      username: "alice",
      password: "alice-new-pass",
      calendarUrl: workUrl,
    });
    expect(again.body).toMatchObject({ status: "connected", lastError: null, calendarName: "Work" });
    const booked = await book(admin, {
      clientId: client.id,
      title: "Retry",
      startsAt: daysAhead(5, "09:00"),
      durationMinutes: 30,
      timeZone: "UTC",
    });
    expect(booked.status).toBe(201);
    const ics = unfold(await (await dav.request("alice", booked.body.eventUrl)).text());
    expect(ics).toContain(`DTSTART:${daysAhead(5, "090000Z").replace(/-/g, "")}`);
  });

  it("disconnects: the row and its password are gone", async () => {
    const res = await s.api("DELETE", "/crm/calendar/connection", { token: admin });
    expect(res.status).toBe(204);
    expect(
      (await s.api<CalendarConnection>("GET", "/crm/calendar/connection", { token: admin })).body.status,
    ).toBe("none");
    expect(await s.database.db.selectFrom("crm_calendar_connections").selectAll().execute()).toEqual([]);
    expect((await s.api("DELETE", "/crm/calendar/connection", { token: admin })).status).toBe(404);
  });
});
