/**
 * The modules that send webhooks, each with its service base, what its hooks are for and the
 * events a hook may take (the server's event names, with their labels). The webhooks screen
 * of a module reads its entry here; a module that starts sending webhooks adds one. Keys sorted.
 */
import type { WebhookBase } from "./webhooks-api";

export interface WebhookModule {
  base: WebhookBase;
  /** What the hooks tell other systems, as a sentence. */
  purpose: string;
  /** The events, in the order offered; the first is ticked in a new hook. */
  events: ReadonlyArray<{ value: string; label: string }>;
  /** What a delivery's `data` holds, as JSON-like text, when worth saying. */
  payload?: string;
}

export const WEBHOOK_MODULES = {
  cms: {
    base: "cms",
    purpose: "Tell other systems when entries are published, unpublished or deleted.",
    events: [
      { value: "entry.publish", label: "Entry published" },
      { value: "entry.unpublish", label: "Entry unpublished" },
      { value: "entry.delete", label: "Entry deleted" },
    ],
  },
  forms: {
    base: "forms",
    purpose: "Send each new answer to a form to another system (a CRM, a mailing list, a chat).",
    events: [{ value: "submission.created", label: "Submission received" }],
    payload: "{ form: { id, slug, name }, submission }",
  },
} as const satisfies Record<string, WebhookModule>;

export type WebhookModuleKey = keyof typeof WEBHOOK_MODULES;

/** An event's label in a module, or its name when the module does not know it. */
export function eventLabel(module: Pick<WebhookModule, "events">, event: string): string {
  return module.events.find((e) => e.value === event)?.label ?? event;
}
