/** A client's emails as conversations (the page's thread view), pure so it is tested alone. */
import type { CrmMessage } from "../../../../schemas/crm-messages";

export interface EmailThread {
  id: string;
  subject: string;
  messages: CrmMessage[];
  lastAt: string;
}

/** Emails grouped by thread: threads by latest mail first, each thread's mails oldest first. */
export function emailThreads(messages: readonly CrmMessage[]): EmailThread[] {
  const threads = new Map<string, EmailThread>();
  for (const m of messages) {
    if (m.channel !== "email") continue;
    const key = m.thread_id ?? m.id;
    const thread = threads.get(key) ?? { id: key, subject: "", messages: [], lastAt: m.created_at };
    thread.messages.push(m);
    if (m.created_at > thread.lastAt) thread.lastAt = m.created_at;
    threads.set(key, thread);
  }
  return [...threads.values()]
    .map((t) => {
      const messages = [...t.messages].sort((a, b) => a.created_at.localeCompare(b.created_at));
      return { ...t, messages, subject: messages[0].subject || "(no subject)" };
    })
    .sort((a, b) => b.lastAt.localeCompare(a.lastAt));
}

/**
 * The subject of an answer: "Re: " once, however many times the thread went back and forth.
 *
 * @example
 * replySubject("RE: Prices"); // "RE: Prices"
 */
export const replySubject = (subject: string) => (/^re:/i.test(subject.trim()) ? subject : `Re: ${subject}`);
