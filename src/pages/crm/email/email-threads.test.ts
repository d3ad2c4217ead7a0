import { describe, expect, it } from "vitest";
import type { CrmMessage } from "../../../../schemas/crm-messages";
import { emailThreads, replySubject } from "./email-threads";

const message = (
  id: string,
  thread: string | null,
  at: string,
  extra: Partial<CrmMessage> = {},
): CrmMessage => ({
  id,
  channel: "email",
  direction: "out",
  client_id: "c",
  thread_id: thread,
  subject: `Subject ${id}`,
  body: "",
  body_text: "",
  from: "a@x.example",
  to: "b@x.example",
  cc: [],
  bcc: [],
  status: "sent",
  error: null,
  template_id: null,
  actor_id: null,
  attachments: [],
  opens: 0,
  opened_at: null,
  clicks: 0,
  clicked_at: null,
  created_at: at,
  ...extra,
});

describe("emailThreads", () => {
  it("groups by thread, latest thread first, each thread oldest first, SMS left out", () => {
    const threads = emailThreads([
      message("3", "t1", "2026-06-03T00:00:00Z", { direction: "in", subject: "Re: Subject 1" }),
      message("2", "t2", "2026-06-02T00:00:00Z"),
      message("1", "t1", "2026-06-01T00:00:00Z"),
      message("4", null, "2026-06-04T00:00:00Z", { channel: "sms" }),
    ]);
    expect(threads.map((t) => [t.id, t.subject, t.messages.map((m) => m.id)])).toEqual([
      ["t1", "Subject 1", ["1", "3"]],
      ["t2", "Subject 2", ["2"]],
    ]);
  });
});

describe("replySubject", () => {
  it("adds Re: once", () => {
    expect(replySubject("Prices")).toBe("Re: Prices");
    expect(replySubject("RE: Prices")).toBe("RE: Prices");
  });
});
