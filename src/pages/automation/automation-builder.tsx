/**
 * The builder tab: the canvas and its sidebar over the automation's draft. Every change saves
 * the draft by itself (a moment after the last one); Publish saves what is left, then makes the
 * draft the next version, or marks each node at fault with what to fix.
 */
import { CloudUploadOutlined, ExperimentOutlined } from "@ant-design/icons";
import { useInvalidate } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Space, Tag } from "antd";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { resourceByName } from "../../../resources";
import { type AutomationDefinition, stepNumbers, TRIGGER_ID } from "../../../schemas/automation";
import { LoadError } from "../../components/load-error";
import { PageLoader } from "../../components/page-loader";
import { getErrorMessage, getFieldErrors, statusOf } from "../../lib/errors";
import { plural } from "../../lib/text";
import { automationKeys, getDraft, nodeProblemsOf, publish, saveDraft } from "./automation-api";
import { automationReducer, initialAutomationState } from "./automation-state";
import { type DeleteChoice, DeleteStepDialog } from "./delete-step-dialog";
import { useEntities } from "./entities";
import { FlowCanvas, focusCanvasNode } from "./flow-canvas";
import { stepsBefore } from "./flow-edits";
import { definitionToGraph, graphToDefinition, parseParentId } from "./flow-graph";
import { NodeSidebar } from "./node-sidebar";
import { type SaveState, SaveStatus } from "./save-status";
import { TemplateChoices, useDraftTemplate, useTemplateChoices } from "./template-choices";
import { TestStepPanel, TestSummary } from "./test-results";
import { TestSampleDialog } from "./test-sample-dialog";
import { useTestRun } from "./use-test-run";
import { stepOutputFields, triggerFields, variableGroups } from "./variables";

const SAVE_DELAY_MS = 800;

export function AutomationBuilder({ id }: { id: string }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  const [state, dispatch] = useReducer(automationReducer, initialAutomationState);
  const draft = useQuery({ queryKey: automationKeys.draft(id), queryFn: () => getDraft(id) });
  const [save, setSave] = useState<SaveState>({ state: "idle" });
  const [problems, setProblems] = useState<ReadonlyMap<string, readonly string[]>>(new Map());
  const [deleting, setDeleting] = useState<string | null>(null);
  const [publishing, setPublishing] = useState(false);
  const loaded = useRef<string | null>(null);
  const lastSaved = useRef("");
  // The revision the canvas's content is based on: the one loaded, then each save's answer. Kept
  // here, not read from the query's cache, so a refetch answered late can never move it back.
  const baseRevision = useRef(0);
  // One save at a time, each on the revision the one before it answered: two saves in flight
  // on the same revision made the second a false "someone else saved" (409) — the first save
  // after the server starts compiles the draft's schema and outlasts the autosave's delay.
  const inFlight = useRef<Promise<boolean> | null>(null);
  const wanted = useRef<AutomationDefinition | null>(null);
  // Where focus goes once a delete (or its cancel) has redrawn the canvas.
  const refocus = useRef<{ hangsAt: string | null; fallback: string; opener?: HTMLElement | null } | null>(
    null,
  );

  useEffect(() => {
    if (!draft.data || loaded.current === id) return;
    loaded.current = id;
    // As the canvas gives it back (its keys in the canvas's order, not the database's): a draft
    // just opened reads as saved, and is not saved again for nothing.
    lastSaved.current = JSON.stringify(graphToDefinition(definitionToGraph(draft.data.definition).nodes));
    baseRevision.current = draft.data.revision;
    dispatch({ type: "load", definition: draft.data.definition });
  }, [draft.data, id]);

  const definition = useMemo(
    () => (state.nodes.length ? graphToDefinition(state.nodes) : null),
    [state.nodes],
  );
  // A draft just made from a template: its choices left are marked until the first publish,
  // and the first of them is selected when it opens.
  const [params] = useSearchParams();
  const template = useDraftTemplate(params.get("template"), draft.data?.publishedVersion);
  const choices = useTemplateChoices(template, definition);
  const pointed = useRef(false);
  useEffect(() => {
    const first = choices.keys().next().value;
    if (pointed.current || !first) return;
    pointed.current = true;
    dispatch({ type: "select", nodeId: first });
  }, [choices]);
  const marked = problems.size ? problems : choices;
  const text = definition ? JSON.stringify(definition) : "";
  const unsaved = Boolean(definition) && text !== lastSaved.current;

  const saveOnce = useCallback(
    async (next: AutomationDefinition) => {
      setSave({ state: "saving" });
      try {
        const saved = await saveDraft(id, next, baseRevision.current);
        lastSaved.current = JSON.stringify(next);
        baseRevision.current = saved.revision;
        queryClient.setQueryData(automationKeys.draft(id), saved);
        setSave({ state: "saved" });
        return true;
      } catch (error) {
        if (statusOf(error) === 409) {
          setSave({ state: "conflict" });
          return false;
        }
        const fields = getFieldErrors(error).map((f) => f.message);
        setSave({ state: "error", message: fields[0] ?? getErrorMessage(error) });
        return false;
      }
    },
    [id, queryClient],
  );

  /** Saves the newest content asked for, after the save in flight (if any) has answered. */
  const saveNow = useCallback(
    async (next: AutomationDefinition): Promise<boolean> => {
      wanted.current = next;
      while (inFlight.current) if (!(await inFlight.current)) return false;
      const newest = wanted.current ?? next;
      if (JSON.stringify(newest) === lastSaved.current) return true;
      const attempt = saveOnce(newest);
      inFlight.current = attempt;
      try {
        return await attempt;
      } finally {
        inFlight.current = null;
      }
    },
    [saveOnce],
  );

  const reload = async () => {
    loaded.current = null;
    setSave({ state: "idle" });
    await draft.refetch();
  };

  useEffect(() => {
    if (!definition || !unsaved || save.state === "conflict" || save.state === "saving") return;
    const timer = setTimeout(() => void saveNow(definition), SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [definition, unsaved, saveNow, save.state]);

  // The variables a step may use (spec §3 formFields, actionFormFields).
  const trigger = definition?.trigger;
  // A resource's schema from the app's registry; any entity (a CMS type too) from the entities API.
  const { schemaOf: entitySchemaOf } = useEntities();
  const schemaOf = useCallback(
    (name: string) => resourceByName(name)?.schema ?? entitySchemaOf(name),
    [entitySchemaOf],
  );
  const fromTrigger = useMemo(() => (trigger ? triggerFields(trigger, schemaOf) : []), [trigger, schemaOf]);
  const fromSteps = useMemo(
    () =>
      definition && state.selectedNode
        ? stepOutputFields(
            stepsBefore(definition, state.selectedNode),
            stepNumbers(definition.steps),
            schemaOf,
          )
        : [],
    [definition, state.selectedNode, schemaOf],
  );
  useEffect(() => dispatch({ type: "setFormFields", fields: fromTrigger }), [fromTrigger]);
  useEffect(() => dispatch({ type: "setActionFormFields", fields: fromSteps }), [fromSteps]);
  const groups = useMemo(
    () => variableGroups(state.formFields, state.actionFormFields),
    [state.formFields, state.actionFormFields],
  );

  const tests = useTestRun(id, {
    saveFirst: () => (definition && unsaved ? saveNow(definition) : Promise.resolve(true)),
    select: (nodeId) => {
      dispatch({ type: "select", nodeId });
      requestAnimationFrame(() => focusCanvasNode(nodeId));
    },
    current: text,
  });
  const selectedTest = tests.test?.steps.find((s) => s.id === state.selectedNode);

  const onPublish = async () => {
    if (!definition) return;
    setPublishing(true);
    try {
      if (unsaved && !(await saveNow(definition))) return;
      const result = await publish(id);
      setProblems(new Map());
      message.success(`Published as version ${result.version}`);
      invalidate({ resource: "automations", invalidates: ["detail", "list"], id });
      // The draft (now live), the versions and the runs of this automation.
      void queryClient.invalidateQueries({ queryKey: ["automations", id] });
    } catch (error) {
      const found = nodeProblemsOf(error);
      if (!found.length) {
        message.error(getErrorMessage(error));
        return;
      }
      const byNode = new Map<string, string[]>();
      for (const p of found) byNode.set(p.nodeId, [...(byNode.get(p.nodeId) ?? []), p.message]);
      setProblems(byNode);
      message.error(`Not published: ${plural(found.length, "problem")} to fix`);
    } finally {
      setPublishing(false);
    }
  };

  const onDelete = (nodeId: string, choice: DeleteChoice) => {
    setDeleting(null);
    // Focus goes to the step that takes its place, else the one before it (never the page).
    const hangsAt = state.nodes.find((n) => n.id === nodeId)?.parentId ?? TRIGGER_ID;
    refocus.current = { hangsAt, fallback: parseParentId(hangsAt).id };
    if (choice.kind === "step") dispatch({ type: "delete", nodeId });
    else if (choice.kind === "subsequent") dispatch({ type: "deleteSubsequent", nodeId });
    else dispatch({ type: "deleteKeeping", nodeId, keep: choice.branch });
    dispatch({ type: "select", nodeId: null });
  };

  // Where the person was when they asked to delete (a node, the sidebar's Delete button).
  const deleteOpener = useRef<HTMLElement | null>(null);
  const askDelete = (nodeId: string) => {
    deleteOpener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setDeleting(nodeId);
  };

  const onDeleteCancel = () => {
    // Back to where the person was, else to the step that was to go.
    if (deleting) refocus.current = { hangsAt: null, fallback: deleting, opener: deleteOpener.current };
    setDeleting(null);
  };

  // After a delete (or its cancel) has redrawn the canvas, focus lands on a node of it.
  useEffect(() => {
    const target = refocus.current;
    if (!target || deleting) return;
    refocus.current = null;
    const next = target.hangsAt
      ? state.nodes.find((n) => n.parentId === target.hangsAt && n.data.config)?.id
      : undefined;
    const frame = requestAnimationFrame(() => {
      if (target.opener?.isConnected && target.opener !== document.body) target.opener.focus();
      else focusCanvasNode(next ?? target.fallback);
    });
    return () => cancelAnimationFrame(frame);
  }, [state.nodes, deleting]);

  if (draft.isError && !draft.data)
    return <LoadError what="the draft" error={draft.error} onRetry={() => draft.refetch()} />;
  if (!state.flowVisibility) return <PageLoader />;

  const faulty = [...problems.entries()];
  return (
    <div className="af-builder">
      <div className="af-toolbar">
        <Space size={12} wrap>
          <SaveStatus save={save} unsaved={unsaved} onReload={reload} />
          {draft.data?.publishedVersion ? (
            <Tag color={draft.data.hasChanges ? "gold" : "green"}>
              {draft.data.hasChanges
                ? `Changed since version ${draft.data.publishedVersion}`
                : `Version ${draft.data.publishedVersion} is live`}
            </Tag>
          ) : (
            <Tag>Never published</Tag>
          )}
        </Space>
        <Space size={8}>
          <Button
            icon={<ExperimentOutlined aria-hidden />}
            loading={tests.running === "all"}
            onClick={() => tests.setOpen(true)}
          >
            Test
          </Button>
          <Button
            type="primary"
            icon={<CloudUploadOutlined aria-hidden />}
            loading={publishing}
            onClick={onPublish}
          >
            Publish
          </Button>
        </Space>
      </div>
      {template && faulty.length === 0 && (
        <TemplateChoices
          template={template}
          choices={choices}
          onSelect={(nodeId) => dispatch({ type: "select", nodeId })}
        />
      )}
      {tests.test && (
        <TestSummary
          test={tests.test}
          stale={tests.stale}
          onSelect={(nodeId) => {
            dispatch({ type: "select", nodeId });
            focusCanvasNode(nodeId);
          }}
          onClear={tests.clear}
        />
      )}
      {faulty.length > 0 && (
        <Alert
          type="error"
          showIcon
          className="af-problems"
          message={`Not published: ${plural(
            faulty.reduce((n, [, ps]) => n + ps.length, 0),
            "problem",
          )} to fix`}
          description={
            <ul>
              {faulty.flatMap(([nodeId, messages]) =>
                messages.map((m) => (
                  <li key={`${nodeId}:${m}`}>
                    <Button type="link" size="small" onClick={() => dispatch({ type: "select", nodeId })}>
                      {m}
                    </Button>
                  </li>
                )),
              )}
            </ul>
          }
        />
      )}
      <div className="af-workspace">
        <FlowCanvas
          nodes={state.nodes}
          edges={state.edges}
          selected={state.selectedNode}
          problems={marked}
          tests={tests.marks}
          onSelect={(nodeId) => dispatch({ type: "select", nodeId })}
          onDeleteRequest={askDelete}
        />
        <aside className="af-sidebar" aria-label="Selected step">
          {selectedTest && state.sidebarType !== "insert" && (
            <TestStepPanel
              result={selectedTest}
              testing={tests.running === selectedTest.id}
              onTestStep={selectedTest.id === TRIGGER_ID ? undefined : () => tests.testStep(selectedTest.id)}
            />
          )}
          <NodeSidebar
            state={state}
            dispatch={dispatch}
            problems={(state.selectedNode && marked.get(state.selectedNode)) || []}
            triggerFields={state.formFields}
            groups={groups}
            webhookPath={draft.data?.webhookPath}
            onDelete={askDelete}
          />
        </aside>
      </div>
      <TestSampleDialog
        open={tests.open}
        automationId={id}
        fields={state.formFields}
        running={tests.running === "all"}
        error={tests.error}
        onRun={tests.run}
        onCancel={() => tests.setOpen(false)}
      />
      <DeleteStepDialog
        node={state.nodes.find((n) => n.id === deleting)}
        onCancel={onDeleteCancel}
        onConfirm={onDelete}
      />
    </div>
  );
}
