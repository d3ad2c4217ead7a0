/**
 * What the client receives about a meeting: an invitation or a cancellation mail, its time said
 * in the meeting's own zone, with the iCalendar part their calendar app acts on.
 */
import { meetingWhen } from "../../../../src/lib/meeting-time";
import type { OutgoingMail } from "../../../mail/mailer";
import { buildCalendar, type IcsEvent, type IcsMethod } from "./ics";

/**
 * The mail to the client: words for any mail app, and the event as its calendar part (iTIP
 * REQUEST to invite, CANCEL to call off), replies going to the organiser.
 */
export function invitationMail(event: IcsEvent, organiserEmail: string, method: IcsMethod): OutgoingMail {
  const when = meetingWhen(event.start, event.end, event.timeZone);
  const who = event.organizer.name || organiserEmail;
  const lines =
    method === "REQUEST"
      ? [
          `${who} invites you to a meeting: ${event.summary}`,
          "",
          `When: ${when}`,
          ...(event.location ? [`Where: ${event.location}`] : []),
          ...(event.description ? ["", event.description] : []),
          "",
          "Your calendar app shows this invitation with buttons to accept or decline it; or reply to this mail.",
        ]
      : [`${who} has cancelled the meeting: ${event.summary}`, "", `It was planned for ${when}.`];
  return {
    to: event.attendees[0].email,
    replyTo: organiserEmail,
    subject: `${method === "REQUEST" ? "Invitation" : "Cancelled"}: ${event.summary} (${when})`,
    text: lines.join("\n"),
    calendar: { method, ics: buildCalendar(event, { method }) },
  };
}
