/**
 * Test runs of the draft (docs/automation-api.md, "Test runs"): run it against a sample with
 * nothing sent and nothing kept, one step again with the last test's outputs, the person's last
 * test, and the records of the trigger's kind a test may start with.
 */
import { createServiceClient } from "../../../providers/http";

const client = createServiceClient("api");
const automationPath = (id: string) => `/api/automations/${encodeURIComponent(id)}`;

export const testKeys = {
  last: (id: string) => ["automations", id, "test"] as const,
  samples: (id: string, q: string) => ["automations", id, "test-samples", q] as const,
};

import type { TestRun, TestSample } from "../../../schemas/automation-test-runs";

export type {
  TestRun,
  TestSample,
  TestStatus,
  TestStepResult,
  WouldSend,
} from "../../../schemas/automation-test-runs";

export interface SampleCandidate {
  id: string;
  label: string;
  description: string | null;
}

export async function runTest(id: string, body: { sample?: TestSample; stepId?: string }): Promise<TestRun> {
  return (await client.post<TestRun>(`${automationPath(id)}/test`, body)).data;
}

export async function getLastTest(id: string): Promise<TestRun | null> {
  return (await client.get<{ test: TestRun | null }>(`${automationPath(id)}/test`)).data.test;
}

export async function getTestSamples(
  id: string,
  q: string,
): Promise<{ noun: string | null; data: SampleCandidate[] }> {
  const params = new URLSearchParams(q ? { q } : {});
  return (
    await client.get<{ noun: string | null; data: SampleCandidate[] }>(
      `${automationPath(id)}/test-samples?${params}`,
    )
  ).data;
}
