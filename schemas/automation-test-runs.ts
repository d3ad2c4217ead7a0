/** What a test run of a draft answers, for the server (server/modules/automation/test-run.ts) and the builder (docs/automation-api.md, "Test runs"). Pure types. */

export type TestSample =
  | { kind: "record"; id?: string }
  | { kind: "variables"; values?: Record<string, string>; clientId?: string };

export type TestStatus = "passed" | "failed" | "skipped" | "branch";

export interface TestStepResult {
  /** The canvas node: a step's id, or `trigger`. */
  id: string;
  /** The step's number on the canvas (0 for the trigger). */
  number: number;
  title: string;
  status: TestStatus;
  branch?: string;
  note?: string;
  inputs: unknown;
  outputs: unknown;
  error?: string;
  /** What to change, in words, when it failed. */
  fix?: string;
}

/** What a real run would have sent (and the test did not). */
export interface WouldSend {
  stepId: string;
  channel: "email" | "sms" | "http";
  [field: string]: unknown;
}

export interface TestRun {
  sample: TestSample;
  steps: TestStepResult[];
  sent: WouldSend[];
  /** Each step's output by id (what `{{steps.<id>.…}}` read), for "Test this step". */
  outputs: Record<string, unknown>;
  testedAt: string;
  /** Set when only this step ran ("Test this step"). */
  stepId?: string;
}
