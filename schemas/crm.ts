/**
 * The CRM's shared vocabulary (issue 16): the admin-managed option lists (spec §3
 * `commonDropdown`) that selects read, the opportunity outcomes, and the timeline's kinds.
 */

/** The option lists every CRM install has; admins may add their own (for custom enum fields). */
export const DROPDOWN_LISTS = ["stage", "source", "industry", "lost_reason", "tag"] as const;
export const DROPDOWN_LIST_LABELS = ["Stages", "Sources", "Industries", "Lost reasons", "Tags"] as const;
/**
 * A list's name in a sentence: the built-in lists' labels ("Sources"), another list's key in
 * words ("company_size" → "Company size").
 *
 * @example
 * dropdownListLabel("lost_reason"); // "Lost reasons"
 */
export function dropdownListLabel(list: string): string {
  const at = (DROPDOWN_LISTS as readonly string[]).indexOf(list);
  if (at >= 0) return DROPDOWN_LIST_LABELS[at];
  // Not wordsOfKey (error-messages.ts): the list screen would load the validation messages with it.
  const words = list.replace(/_+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A list's key: lower-case letters, digits and `_` (a custom list's too). */
export const DROPDOWN_LIST_PATTERN = "^[a-z][a-z0-9_]{0,39}$";

/** An opportunity is open (on the board, in a stage), or closed as won or lost. */
export const OPPORTUNITY_STATUSES = ["open", "won", "lost"] as const;
export type OpportunityStatus = (typeof OPPORTUNITY_STATUSES)[number];

/** What a timeline entry (spec §3 `clientData`) records, newest first on a client's page. */
export const TIMELINE_KINDS = [
  "note",
  "email_out",
  "email_in",
  "email_opened",
  "email_clicked",
  "sms_out",
  "sms_in",
  "form",
  "opportunity",
  "meeting",
  "task",
  "sequence",
  "store",
  "proposal",
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];
export const TIMELINE_KIND_LABELS: Readonly<Record<TimelineKind, string>> = {
  note: "Note",
  email_out: "Email sent",
  email_in: "Email received",
  email_opened: "Email opened",
  email_clicked: "Link clicked",
  sms_out: "SMS sent",
  sms_in: "SMS received",
  form: "Form submission",
  opportunity: "Opportunity",
  meeting: "Meeting",
  task: "Task",
  sequence: "Sequence",
  store: "Online store",
  proposal: "Proposal",
};

/** The options installed with the CRM, so a new install has a working board and selects. */
export const DEFAULT_DROPDOWNS: Readonly<
  Record<string, ReadonlyArray<{ value: string; label: string; probability?: number }>>
> = {
  stage: [
    { value: "new", label: "New", probability: 10 },
    { value: "qualified", label: "Qualified", probability: 25 },
    { value: "proposal", label: "Proposal", probability: 50 },
    { value: "negotiation", label: "Negotiation", probability: 75 },
  ],
  source: [
    { value: "website", label: "Website" },
    { value: "form", label: "Form" },
    { value: "referral", label: "Referral" },
    { value: "event", label: "Event" },
    { value: "import", label: "Import" },
  ],
  industry: [
    { value: "retail", label: "Retail" },
    { value: "manufacturing", label: "Manufacturing" },
    { value: "services", label: "Services" },
    { value: "technology", label: "Technology" },
  ],
  lost_reason: [
    { value: "price", label: "Price" },
    { value: "timing", label: "Timing" },
    { value: "competitor", label: "Chose a competitor" },
    { value: "no_response", label: "No response" },
  ],
  tag: [
    { value: "vip", label: "VIP" },
    { value: "newsletter", label: "Newsletter" },
  ],
};
