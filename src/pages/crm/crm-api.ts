/**
 * The CRM's own calls (docs/crm-api.md) over the CRM service base: a client's timeline and
 * notes. Records themselves (clients, opportunities, tasks…) go through Refine's data provider.
 */
import { createServiceClient } from "../../../providers/http";
import type { TimelineKind } from "../../../schemas/crm";

const client = createServiceClient("crm");

export interface TimelineEntry {
  id: string;
  client_id: string;
  kind: TimelineKind;
  occurred_at: string;
  actor_id: string | null;
  title: string;
  body: string | null;
  data: Record<string, unknown>;
  ref_id: string | null;
}

export interface TimelinePage {
  data: TimelineEntry[];
  next: string | null;
}

export const crmKeys = {
  timeline: (clientId: string, kinds: readonly string[]) => ["crm", "timeline", clientId, ...kinds] as const,
  timelineOf: (clientId: string) => ["crm", "timeline", clientId] as const,
};

export async function getTimeline(
  clientId: string,
  kinds: readonly TimelineKind[],
  before?: string | null,
): Promise<TimelinePage> {
  const params = new URLSearchParams();
  for (const k of kinds) params.append("kind", k);
  if (before) params.set("before", before);
  params.set("limit", "30");
  return (await client.get<TimelinePage>(`/clients/${encodeURIComponent(clientId)}/timeline?${params}`)).data;
}

export async function addNote(clientId: string, body: string): Promise<TimelineEntry> {
  return (
    await client.post<TimelineEntry>(
      `/clients/${encodeURIComponent(clientId)}/notes`,
      { body },
      { idempotent: true },
    )
  ).data;
}

export async function deleteNote(clientId: string, noteId: string): Promise<void> {
  await client.delete(`/clients/${encodeURIComponent(clientId)}/notes/${encodeURIComponent(noteId)}`);
}
