/**
 * `/forms/forms/show/:id`: a form's page. The header says where the form stands (draft,
 * published version, unpublished or unsaved changes) and saves (also Ctrl/⌘+S), publishes,
 * shares and restores versions; the tabs build it, set its mail, UTM and sending, and show its
 * submissions, its partial answers (started, not sent) and insights. Unsaved changes are asked about before leaving.
 */
import { Show } from "@refinedev/antd";
import { useInvalidate, useOne } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Badge, Spin, Tabs } from "antd";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import { LoadError } from "../../components/load-error";
import { PageLoader } from "../../components/page-loader";
import { useUnsavedWarning } from "../../hooks/use-unsaved-warning";
import { getErrorMessage } from "../../lib/errors";
import { placeOfResource, RecordUnavailablePage } from "../../resources/record-not-found";
import { recordPath } from "../../resources/routes";
import { recordState } from "../../resources/show/record-state";
import type { ScreenProps } from "../../resources/types";
import { ConflictDialog } from "./conflict-dialog";
import { FormActions, FormStatusTags } from "./form-header";
import "./form-page.css";
import { type FormRecord, formKeys, getFormVersion, restoreFormVersion } from "./forms-api";
import { SettingsTab } from "./settings-tab";
import { ShareDialog } from "./share-dialog";
import { useFormDraft } from "./use-form-draft";
import { VersionsDrawer } from "./versions-drawer";

const FormBuilder = lazy(() => import("./form-builder"));
const FormSubmissions = lazy(() => import("./submissions-tab"));
const FormInsights = lazy(() => import("./insights-tab"));
const FormPartials = lazy(() => import("./partials-tab"));

const TABS = ["build", "settings", "submissions", "partials", "insights"] as const;
type Tab = (typeof TABS)[number];

/** The space a tab takes while its code loads, so the page does not jump when it arrives. */
const tabFallback = <Spin style={{ display: "block", padding: "120px 0" }} />;

/** Ctrl/⌘+S runs `save` anywhere on the page (inputs included), instead of the browser's save. */
function useSaveShortcut(save: () => void) {
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "s") {
        event.preventDefault();
        latest.current();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}

export default function FormPage({ def }: ScreenProps) {
  const { id = "" } = useParams();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  const { query } = useOne<FormRecord>({ resource: def.name, id, errorNotification: false });
  const record = query.data?.data;
  const onChanged = useCallback(
    () => invalidate({ resource: def.name, invalidates: ["detail", "list"], id }),
    [invalidate, def.name, id],
  );
  const draft = useFormDraft(id, onChanged);
  const [params, setParams] = useSearchParams();
  const tab: Tab = TABS.find((t) => t === params.get("tab")) ?? "build";
  const [sharing, setSharing] = useState(false);
  const [history, setHistory] = useState(false);

  useUnsavedWarning(draft.dirty);
  useSaveShortcut(() => {
    if (draft.dirty && !draft.busy) void draft.save();
  });

  // Answers are stored under the published fields' ids, so those ids stay as they are.
  const published = useQuery({
    queryKey: formKeys.version(id, record?.published_version ?? 0),
    queryFn: () => getFormVersion(id, record?.published_version ?? 0),
    enabled: Boolean(record?.published_version),
  });
  const publishedIds = useMemo(
    () => (published.data ? new Set(published.data.definition.fields.map((f) => f.id)) : null),
    [published.data],
  );
  const { savedIds } = draft;
  const idLocked = useCallback(
    (fieldId: string) =>
      record?.published_version ? (publishedIds ? publishedIds.has(fieldId) : savedIds.has(fieldId)) : false,
    [record?.published_version, publishedIds, savedIds],
  );

  const restore = async (version: number) => {
    try {
      await restoreFormVersion(id, version);
      await draft.load();
      await Promise.all([onChanged(), queryClient.invalidateQueries({ queryKey: formKeys.versions(id) })]);
      message.success(`Version ${version} is the draft now`);
      setHistory(false);
    } catch (error) {
      message.error(getErrorMessage(error));
    }
  };
  const publish = async () => {
    if (await draft.publish()) await queryClient.invalidateQueries({ queryKey: formKeys.versions(id) });
  };

  const state = recordState(id, query);
  if (state === "not-found" || state === "failed")
    return (
      <RecordUnavailablePage
        resource={def.name}
        title={def.singular}
        place={placeOfResource(def)}
        state={state}
        error={query.error}
        onRetry={() => query.refetch()}
      />
    );

  const settingsErrors = Object.keys({ ...draft.errors.settings, ...draft.problems.settings }).length;
  const body = draft.loadError ? (
    <LoadError what="form's fields" error={draft.loadError} onRetry={draft.load} />
  ) : !record || (draft.state.loading && draft.state.items.length === 0) ? (
    <PageLoader />
  ) : (
    <Tabs
      activeKey={tab}
      onChange={(key) => setParams(key === "build" ? {} : { tab: key }, { replace: true })}
      items={[
        {
          key: "build",
          label: "Build",
          children: (
            <Suspense fallback={tabFallback}>
              <FormBuilder draft={draft} name={record.name} slug={record.slug} idLocked={idLocked} />
            </Suspense>
          ),
        },
        {
          key: "settings",
          label: (
            <Badge dot={settingsErrors > 0} offset={[6, 0]}>
              Settings
            </Badge>
          ),
          children: <SettingsTab draft={draft} />,
        },
        {
          key: "submissions",
          label: "Submissions",
          children: (
            <Suspense fallback={tabFallback}>
              {tab === "submissions" && <FormSubmissions formId={id} />}
            </Suspense>
          ),
        },
        {
          key: "partials",
          label: "Partial answers",
          children: (
            <Suspense fallback={tabFallback}>
              {tab === "partials" && (
                <FormPartials formId={id} fields={published.data?.definition.fields ?? draft.state.items} />
              )}
            </Suspense>
          ),
        },
        {
          key: "insights",
          label: "Insights",
          children: (
            <Suspense fallback={tabFallback}>{tab === "insights" && <FormInsights formId={id} />}</Suspense>
          ),
        },
      ]}
    />
  );

  return (
    <Show
      resource={def.name}
      recordItemId={id}
      title={record?.name ?? def.singular}
      isLoading={false}
      headerProps={{ className: "fp-header", tags: record && <FormStatusTags record={record} /> }}
      headerButtons={
        record && (
          <FormActions
            record={record}
            editPath={recordPath(def, "edit", id)}
            dirty={draft.dirty}
            busy={draft.busy}
            onVersions={() => setHistory(true)}
            onShare={() => setSharing(true)}
            onSave={() => void draft.save()}
            onPublish={() => void publish()}
          />
        )
      }
      contentProps={{ styles: { body: { padding: "4px 16px 16px" } } }}
    >
      {body}
      {record && (
        <>
          <ShareDialog
            open={sharing}
            slug={record.slug}
            published={record.status === "published"}
            onClose={() => setSharing(false)}
          />
          <VersionsDrawer
            open={history}
            formId={id}
            name={record.name}
            slug={record.slug}
            dirty={draft.dirty}
            onClose={() => setHistory(false)}
            onRestore={restore}
          />
        </>
      )}
      <ConflictDialog
        open={draft.conflict}
        busy={draft.busy === "saving"}
        onReload={() => void draft.load()}
        onOverwrite={() => void draft.overwrite()}
        onClose={draft.closeConflict}
      />
    </Show>
  );
}
