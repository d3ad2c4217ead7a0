/**
 * The builder's test runs: the person's last test (read when the builder opens), a new one
 * against a sample, one step again ("Test this step"). The draft is saved first (a test runs
 * what the server holds); a failed step is selected so its sidebar says what to fix.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App } from "antd";
import { useEffect, useMemo, useState } from "react";
import { getErrorMessage, getFieldErrors } from "../../lib/errors";
import { getLastTest, runTest, type TestRun, type TestSample, testKeys } from "./test-api";
import { testMarks } from "./test-results";

interface TestRunOptions {
  /** Saves what the canvas holds; false when it could not. */
  saveFirst: () => Promise<boolean>;
  /** Selects a node of the canvas. */
  select: (nodeId: string) => void;
  /** The draft as the canvas holds it now, as JSON: a test of another one is stale. */
  current: string;
}

export function useTestRun(id: string, { saveFirst, select, current }: TestRunOptions) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const last = useQuery({ queryKey: testKeys.last(id), queryFn: () => getLastTest(id), retry: false });
  const [test, setTest] = useState<TestRun | null>(null);
  const [hidden, setHidden] = useState(false);
  const [testedText, setTestedText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [running, setRunning] = useState<false | "all" | string>(false);
  const [error, setError] = useState<string | null>(null);

  // The last test as the server kept it, until this page runs one.
  useEffect(() => {
    if (last.data && !test) setTest(last.data);
  }, [last.data, test]);

  const finish = (result: TestRun) => {
    setTest(result);
    setHidden(false);
    setTestedText(current);
    queryClient.setQueryData(testKeys.last(id), result);
    const failed = result.steps.find((s) => s.status === "failed");
    if (failed) select(failed.id);
  };

  const run = async (sample: TestSample) => {
    setRunning("all");
    setError(null);
    try {
      if (!(await saveFirst())) {
        setError("The draft could not be saved: fix that first, then test it.");
        return;
      }
      const result = await runTest(id, { sample });
      setOpen(false);
      finish(result);
    } catch (e) {
      setError(getFieldErrors(e)[0]?.message ?? getErrorMessage(e));
    } finally {
      setRunning(false);
    }
  };

  const testStep = async (stepId: string) => {
    setRunning(stepId);
    try {
      if (!(await saveFirst())) return;
      finish(await runTest(id, { stepId }));
    } catch (e) {
      message.error(getFieldErrors(e)[0]?.message ?? getErrorMessage(e));
    } finally {
      setRunning(false);
    }
  };

  const shown = hidden ? null : test;
  const marks = useMemo(() => testMarks(shown), [shown]);
  return {
    test: shown,
    marks,
    // A test read back from the server was of the draft as it was then: not known to be current.
    stale: Boolean(shown) && testedText !== null && testedText !== current,
    open,
    setOpen: (value: boolean) => {
      setError(null);
      setOpen(value);
    },
    running,
    error,
    run,
    testStep,
    clear: () => setHidden(true),
  };
}
