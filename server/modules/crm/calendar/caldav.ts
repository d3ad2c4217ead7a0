/**
 * A user's CalDAV account (RFC 4791) through tsdav, every request through the one outbound
 * client (server/http/outbound.ts): a calendar URL is a URL a user typed, so private, loopback
 * and link-local targets are refused unless configuration allows them, hrefs the server answers
 * with included. Discovery follows the RFC 6764 path: /.well-known/caldav, the principal, its
 * calendar-home-set, then the calendars there that hold events.
 *
 * Failures come out as a CalDavError whose `problem` says which kind, so the routes can tell the
 * user which field is wrong (the password, the address) in words.
 */
import { createAccount, createCalendarObject, deleteCalendarObject, fetchCalendars } from "tsdav";
import { OutboundRefused, outboundFetch, outboundProblem, unreachableWords } from "../../../http/outbound";

export type CalDavProblem =
  /** The server refused the user name or password (401). */
  | "auth"
  /** The address is not allowed: not http(s), or private without OUTBOUND_ALLOW_PRIVATE. */
  | "refused"
  /** No answer: no such host, connection refused, timed out, bad certificate. */
  | "unreachable"
  /** It answered, but not as a CalDAV server (no principal or calendar home). */
  | "not_caldav"
  /** A CalDAV account without a calendar that holds events. */
  | "no_calendar"
  /** The server refused a write (a full calendar, a read-only one, a conflict). */
  | "rejected";

export class CalDavError extends Error {
  constructor(
    readonly problem: CalDavProblem,
    message: string,
  ) {
    super(message);
  }
}

export interface CalDavCredentials {
  serverUrl: string;
  username: string;
  password: string;
}

export interface CalDavCalendar {
  url: string;
  name: string;
  color: string | null;
}

export interface CalDavAccount {
  principalUrl: string;
  homeUrl: string;
  /** Calendars that hold events, in the server's order. */
  calendars: CalDavCalendar[];
}

export interface CalDavOptions {
  allowPrivate: boolean;
  /** Per request (default 15 s). */
  timeoutMs?: number;
}

const AUTH_WORDS = "The calendar server refused the user name or app password";

/** One account's CalDAV calls; a new client per use (credentials are not kept beyond it). */
export class CalDavClient {
  private readonly headers: Record<string, string>;
  private readonly fetch: typeof fetch;
  /** What the requests met, to tell a wrong password from a wrong address afterwards. */
  private seenUnauthorized = false;
  private networkError: unknown = null;

  constructor(
    private readonly credentials: CalDavCredentials,
    private readonly options: CalDavOptions,
  ) {
    const basic = Buffer.from(`${credentials.username}:${credentials.password}`, "utf8").toString("base64");
    this.headers = { authorization: `Basic ${basic}` };
    const call = outboundFetch({
      allowPrivate: options.allowPrivate,
      timeoutMs: options.timeoutMs ?? 15_000,
      // A calendar home with many calendars answers in one multistatus.
      maxBodyBytes: 4 * 1024 * 1024,
    });
    this.fetch = (async (input, init) => {
      try {
        const answer = await call(input, init);
        if (answer.status === 401) this.seenUnauthorized = true;
        return answer;
      } catch (error) {
        this.networkError ??= error;
        throw error;
      }
    }) as typeof fetch;
  }

  /** The error a failed call means, from what the requests met. */
  private failure(error: unknown, otherwise: CalDavProblem, words: string): CalDavError {
    if (error instanceof CalDavError) return error;
    if (this.seenUnauthorized) return new CalDavError("auth", AUTH_WORDS);
    const network = this.networkError ?? error;
    if (network instanceof OutboundRefused) return new CalDavError("refused", network.message);
    if (this.networkError)
      return new CalDavError(
        "unreachable",
        `The calendar server could not be reached: ${unreachableWords(this.networkError)}`,
      );
    return new CalDavError(otherwise, words);
  }

  /** Finds the principal, the calendar home and its event calendars; checks the credentials. */
  async discover(): Promise<CalDavAccount> {
    const problem = await outboundProblem(this.credentials.serverUrl, this.options.allowPrivate);
    if (problem)
      throw new CalDavError("refused", problem.startsWith("The ") ? problem : `The address ${problem}`);
    try {
      const account = await createAccount({
        account: { serverUrl: this.credentials.serverUrl, accountType: "caldav" },
        headers: this.headers,
        fetch: this.fetch,
      });
      const calendars = (await fetchCalendars({ account, headers: this.headers, fetch: this.fetch }))
        .filter((c) => !c.components?.length || c.components.includes("VEVENT"))
        .map((c) => ({
          url: c.url,
          name:
            typeof c.displayName === "string" && c.displayName.trim() ? c.displayName.trim() : nameOf(c.url),
          color: typeof c.calendarColor === "string" ? c.calendarColor : null,
        }));
      if (!calendars.length)
        throw new CalDavError(
          "no_calendar",
          "This account has no calendar for events: create one, then connect again",
        );
      return { principalUrl: account.principalUrl ?? "", homeUrl: account.homeUrl ?? "", calendars };
    } catch (error) {
      throw this.failure(
        error,
        "not_caldav",
        "This address does not answer as a CalDAV server (no calendar home was found)",
      );
    }
  }

  /** Creates `<calendar>/<name>` (never over an existing one); answers its URL and ETag. */
  async createEvent(
    calendarUrl: string,
    name: string,
    ics: string,
  ): Promise<{ url: string; etag: string | null }> {
    const url = new URL(encodeURIComponent(name), calendarUrl.endsWith("/") ? calendarUrl : `${calendarUrl}/`)
      .href;
    let answer: Response;
    try {
      answer = await createCalendarObject({
        calendar: { url: calendarUrl },
        filename: encodeURIComponent(name),
        iCalString: ics,
        headers: this.headers,
        fetch: this.fetch,
      });
    } catch (error) {
      throw this.failure(error, "rejected", "The calendar server did not take the event");
    }
    await this.check(answer, "did not take the event");
    return { url, etag: answer.headers.get("etag") ?? (await this.readEvent(url))?.etag ?? null };
  }

  /** The event's text and ETag, or null when it is gone. */
  async readEvent(url: string): Promise<{ ics: string; etag: string | null } | null> {
    let answer: Response;
    try {
      answer = await this.fetch(url, { method: "GET", headers: this.headers });
    } catch (error) {
      throw this.failure(error, "rejected", "The calendar server did not answer");
    }
    if (answer.status === 404 || answer.status === 410) return null;
    await this.check(answer, "did not give the event back");
    return { ics: await answer.text(), etag: answer.headers.get("etag") };
  }

  /**
   * Deletes the event. Gone already is fine; changed since (412: the user edited it in their own
   * calendar app) still goes, since cancelling is what the user asked for.
   */
  async deleteEvent(url: string, etag: string | null): Promise<void> {
    try {
      let answer = await deleteCalendarObject({
        calendarObject: { url, etag: etag ?? undefined },
        headers: this.headers,
        fetch: this.fetch,
      });
      if (answer.status === 412)
        answer = await deleteCalendarObject({
          calendarObject: { url },
          headers: this.headers,
          fetch: this.fetch,
        });
      if (answer.status === 404 || answer.status === 410) return;
      await this.check(answer, "did not delete the event");
    } catch (error) {
      throw this.failure(error, "rejected", "The calendar server did not delete the event");
    }
  }

  private async check(answer: Response, what: string): Promise<void> {
    if (answer.ok) return;
    if (answer.status === 401) throw new CalDavError("auth", AUTH_WORDS);
    throw new CalDavError("rejected", `The calendar server ${what} (HTTP ${answer.status})`);
  }
}

/** A calendar without a display name is named by its URL's last segment. */
function nameOf(url: string): string {
  const segment = new URL(url).pathname.split("/").filter(Boolean).at(-1) ?? "Calendar";
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
