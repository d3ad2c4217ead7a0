/**
 * The automation module's own calls (docs/automation-api.md): an automation's draft, its
 * publish (refused per node), versions, runs (filtered) and a run's steps, retry (one or in bulk,
 * from the failed step or the start), and a run by hand. The
 * records themselves (name, status) go through Refine's data provider as `automations`.
 */
import { createServiceClient } from "../../../providers/http";
import type { AutomationDefinition } from "../../../schemas/automation";
import type { RetryFrom } from "../../../schemas/automation-failures";
import type { ApiRun, ApiRunStep, ApiRunWithSteps, RunStatus } from "../../../schemas/runs";
import type { VersionSummary } from "../../../schemas/versions";
import { isRecord } from "../../lib/errors";

const client = createServiceClient("api");
const automationPath = (id: string) => `/api/automations/${encodeURIComponent(id)}`;
const runPath = (id: string) => `/api/automation-runs/${encodeURIComponent(id)}`;

export const automationKeys = {
  draft: (id: string) => ["automations", id, "draft"] as const,
  runs: (id: string, query: RunQuery) => ["automations", id, "runs", query] as const,
  runsOf: (id: string) => ["automations", id, "runs"] as const,
  run: (runId: string) => ["automation-runs", runId] as const,
  versions: (id: string) => ["automations", id, "versions"] as const,
  version: (id: string, version: number) => ["automations", id, "versions", version] as const,
};

export interface Draft {
  definition: AutomationDefinition;
  /** Goes up by one with each save: a save that names an older one is refused (409). */
  revision: number;
  publishedVersion: number | null;
  hasChanges: boolean;
  /** `/hooks/automations/<id>/<secret>`: where a webhook trigger is called. */
  webhookPath: string;
}

export { RUN_STATUSES, type RunStatus } from "../../../schemas/runs";

/** A run as the API answers it (schemas/runs.ts: the engine's own contract, times as ISO strings). */
export type AutomationRun = ApiRun;
/** A step of a run, in the order reached. */
export type RunStep = ApiRunStep;
/** A run's history: its definition as the run pinned it, and its steps. */
export type RunWithSteps = ApiRunWithSteps<unknown, AutomationDefinition>;

export interface RunQuery {
  status?: RunStatus;
  step?: string;
  from?: string;
  to?: string;
  record?: string;
  page: number;
  pageSize: number;
}

/** A problem a publish was refused for, on the node at fault. */
export interface NodeProblem {
  nodeId: string;
  field: string;
  message: string;
}

export async function getDraft(id: string): Promise<Draft> {
  return (await client.get<Draft>(`${automationPath(id)}/draft`)).data;
}

/** Saves the draft over `revision`; 409 when someone saved since. */
export async function saveDraft(
  id: string,
  definition: AutomationDefinition,
  revision: number,
): Promise<Draft> {
  return (await client.put<Draft>(`${automationPath(id)}/draft`, { definition, revision })).data;
}

export async function publish(id: string): Promise<{ version: number; status: string }> {
  return (await client.post<{ version: number; status: string }>(`${automationPath(id)}/publish`, {})).data;
}

export async function getVersions(id: string): Promise<VersionSummary[]> {
  return (await client.get<{ data: VersionSummary[] }>(`${automationPath(id)}/versions`)).data.data;
}

/** The flow of one published version (a run's steps are named from the version it ran). */
export async function getVersionDefinition(id: string, version: number): Promise<AutomationDefinition> {
  return (await client.get<{ data: AutomationDefinition }>(`${automationPath(id)}/versions/${version}`)).data
    .data;
}

export async function getRuns(
  id: string,
  query: RunQuery,
): Promise<{ data: AutomationRun[]; total: number }> {
  const params = new URLSearchParams({ page: String(query.page), pageSize: String(query.pageSize) });
  for (const key of ["status", "step", "from", "to", "record"] as const) {
    const value = query[key];
    if (value) params.set(key, value);
  }
  return (await client.get<{ data: AutomationRun[]; total: number }>(`${automationPath(id)}/runs?${params}`))
    .data;
}

export async function getRun(runId: string): Promise<RunWithSteps> {
  return (await client.get<RunWithSteps>(runPath(runId))).data;
}

export async function retryRun(runId: string, from: RetryFrom = "failed-step"): Promise<AutomationRun> {
  return (await client.post<AutomationRun>(`${runPath(runId)}/retry`, { from })).data;
}

/** What a bulk retry answers: counts, and each run's outcome. */
export interface BulkRetry {
  retried: number;
  refused: number;
  notFound: number;
  results: Array<{
    id: string;
    outcome: "retried" | "refused" | "not-found";
    runId?: string;
    message?: string;
  }>;
}

/** Runs failed runs of the automation again, from their failed step or from the start. */
export async function retryRuns(id: string, ids: readonly string[], from: RetryFrom): Promise<BulkRetry> {
  return (await client.post<BulkRetry>(`${automationPath(id)}/runs/retry`, { ids, from })).data;
}

export async function runNow(id: string, clientId?: string): Promise<AutomationRun> {
  return (await client.post<AutomationRun>(`${automationPath(id)}/run`, clientId ? { clientId } : {})).data;
}

/**
 * The per-node problems of a refused publish (400 `details` carrying `nodeId`), or none.
 *
 * @example
 * nodeProblemsOf(error); // [{ nodeId: "action-1", field: "steps.0.type", message: "Step 1 (Action): …" }]
 */
export function nodeProblemsOf(error: unknown): NodeProblem[] {
  const details = (error as { response?: { data?: { details?: unknown } } } | null)?.response?.data?.details;
  if (!Array.isArray(details)) return [];
  return details.flatMap((d: unknown): NodeProblem[] =>
    isRecord(d) && typeof d.nodeId === "string" && typeof d.message === "string"
      ? [{ nodeId: d.nodeId, field: String(d.field ?? ""), message: d.message }]
      : [],
  );
}
