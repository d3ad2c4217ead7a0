/**
 * The sequences' own calls (docs/crm-api.md, "Sequences") over the CRM service base: a
 * sequence's steps, its enrolments and figures, and a client's active sequences. The records
 * themselves (name, status) go through Refine's data provider as the resource `sequences`.
 */
import { createServiceClient } from "../../../../providers/http";
import type {
  Enrolment,
  EnrolmentStatus,
  EnrolResult,
  SequenceStats,
  SequenceStep,
  SequenceSteps,
} from "../../../../schemas/crm-sequence-steps";

const client = createServiceClient("crm");
const sequencePath = (id: string) => `/sequences/${encodeURIComponent(id)}`;

export const sequenceKeys = {
  all: ["crm", "sequences"] as const,
  steps: (id: string) => ["crm", "sequences", id, "steps"] as const,
  stats: (id: string) => ["crm", "sequences", id, "stats"] as const,
  enrolments: (id: string, query: EnrolmentQuery) => ["crm", "sequences", id, "enrolments", query] as const,
  enrolmentsOf: (id: string) => ["crm", "sequences", id, "enrolments"] as const,
  ofClient: (clientId: string) => ["crm", "client-sequences", clientId] as const,
};

export interface EnrolmentQuery {
  status?: EnrolmentStatus;
  q?: string;
  page: number;
  pageSize: number;
}

export async function getSteps(id: string): Promise<SequenceSteps> {
  return (await client.get<SequenceSteps>(`${sequencePath(id)}/steps`)).data;
}

/** Saves the steps as the next version; 409 when someone saved since `version`. */
export async function saveSteps(id: string, steps: SequenceStep[], version: number): Promise<SequenceSteps> {
  return (await client.put<SequenceSteps>(`${sequencePath(id)}/steps`, { steps, version })).data;
}

export async function getStats(id: string): Promise<SequenceStats> {
  return (await client.get<SequenceStats>(`${sequencePath(id)}/stats`)).data;
}

export async function getEnrolments(
  id: string,
  query: EnrolmentQuery,
): Promise<{ data: Enrolment[]; total: number }> {
  const params = new URLSearchParams({ page: String(query.page), pageSize: String(query.pageSize) });
  if (query.status) params.set("status", query.status);
  if (query.q?.trim()) params.set("q", query.q.trim());
  return (await client.get<{ data: Enrolment[]; total: number }>(`${sequencePath(id)}/enrolments?${params}`))
    .data;
}

export async function enrol(id: string, clientIds: string[]): Promise<EnrolResult> {
  return (
    await client.post<EnrolResult>(`${sequencePath(id)}/enrolments`, { clientIds }, { idempotent: true })
  ).data;
}

export async function stopEnrolment(sequenceId: string, runId: string): Promise<void> {
  await client.delete(`${sequencePath(sequenceId)}/enrolments/${encodeURIComponent(runId)}`);
}

export async function getClientSequences(clientId: string): Promise<{ data: Enrolment[]; total: number }> {
  return (
    await client.get<{ data: Enrolment[]; total: number }>(
      `/clients/${encodeURIComponent(clientId)}/sequences`,
    )
  ).data;
}
