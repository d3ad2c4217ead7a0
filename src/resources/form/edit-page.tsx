import { Edit } from "@refinedev/antd";
import { type HttpError, useForm, useNotification, useOne, useWarnAboutChange } from "@refinedev/core";
import { type ReactNode, useCallback, useRef, useState } from "react";
import { useParams } from "react-router";
import { type FormData, toFormData, toUpdateBody } from "../form-schema";
import { placeOfResource, RecordUnavailablePage } from "../record-not-found";
import { recordState } from "../show/record-state";
import type { ResourceRecord, ScreenProps } from "../types";
import { withRuntimeDef } from "../with-runtime-def";
import { AutosaveStatus } from "./autosave-status";
import { type Conflict, ConflictDialog } from "./conflict-dialog";
import { EditorsNotice } from "./editors-notice";
import { ResourceForm, type ResourceFormHandle } from "./resource-form";
import { useAutosave } from "./use-autosave";

/** What a screen that wraps the edit page may add to it (the CMS entry's live preview). */
export interface EditPageProps extends ScreenProps {
  /** Buttons before the page's own (Delete, Refresh). */
  headerButtons?: ReactNode;
  /** Called with the record after each autosave of its draft. */
  onDraftSaved?: (record: ResourceRecord) => void;
}

/** `/<module>/<name>/edit/:id`: the generated edit form; sends only the changed fields. */
function ResourceEditPage({ def, headerButtons, onDraftSaved }: EditPageProps) {
  const { id } = useParams();
  const formRef = useRef<ResourceFormHandle>(null);
  const [serverErrors, setServerErrors] = useState<HttpError["errors"]>();
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [formKey, setFormKey] = useState(0);
  const { open } = useNotification();
  // The record is read here rather than by useForm, whose read toasts every failure: a
  // failure is shown in place instead (not found, or a load error with Retry).
  const { query } = useOne<ResourceRecord, HttpError>({ resource: def.name, id, errorNotification: false });
  const { onFinish, mutation, redirect } = useForm<ResourceRecord, HttpError, FormData>({
    resource: def.name,
    action: "edit",
    id,
    redirect: "show",
    mutationMode: "pessimistic",
    successNotification: { type: "success", message: "Changes saved" },
    // A conflict is shown in its own dialog (ConflictDialog), not as a toast besides.
    ...(def.revisionField
      ? {
          errorNotification: (error?: HttpError) =>
            error?.statusCode === 409
              ? false
              : { type: "error" as const, message: error?.message || "Something Went Wrong" },
        }
      : {}),
    queryOptions: { enabled: false },
  });
  const record = query.data?.data;
  // The record as the form opened it: live updates refresh `record` under an open form, and a
  // save must name the revision the user started from, or another's save would be overwritten.
  const opened = useRef<{ key: number; record: ResourceRecord } | null>(null);
  if (record && opened.current?.key !== formKey) opened.current = { key: formKey, record };
  const label = record?.[def.schema["x-label"]];
  const state = recordState(id, query);
  const { setWarnWhen } = useWarnAboutChange();
  // Drafts saved by autosave since the form opened: Save then records a version even when
  // every change is already on the server.
  const autosaved = useRef(false);
  const autosave = useAutosave(
    def,
    useCallback(() => opened.current?.record, []),
    useCallback(
      (saved: ResourceRecord) => {
        if (opened.current) opened.current = { ...opened.current, record: saved };
        autosaved.current = true;
        setWarnWhen(false);
        onDraftSaved?.(saved);
      },
      [setWarnWhen, onDraftSaved],
    ),
  );

  const save = async (data: FormData, explicitBase?: ResourceRecord) => {
    // A draft save in flight ends first; its answer is the record this save builds on.
    await autosave.settle();
    const base = explicitBase ?? opened.current?.record ?? record;
    if (!base) return;
    const body = toUpdateBody(data, base, def.schema);
    if (Object.keys(body).length === 0 && !autosaved.current) {
      open?.({ type: "success", message: "No changes to save" });
      redirect("show", base.id);
      return;
    }
    // The revision this form opened: a newer one on the server is a conflict, not an overwrite.
    if (def.revisionField) body[def.revisionField] = base[def.revisionField];
    setServerErrors(undefined);
    try {
      await onFinish(body);
    } catch (error) {
      if (def.revisionField && (error as HttpError).statusCode === 409) {
        const latest = (await query.refetch()).data?.data;
        if (latest) setConflict({ message: (error as HttpError).message, mine: data, theirs: latest });
        return;
      }
      setServerErrors((error as HttpError).errors);
    }
  };

  if (state === "not-found" || state === "failed") {
    return (
      <RecordUnavailablePage
        resource={def.name}
        title={`Edit ${def.singular.toLowerCase()}`}
        place={placeOfResource(def)}
        state={state}
        error={query.error}
        onRetry={() => query.refetch()}
      />
    );
  }

  return (
    <Edit
      resource={def.name}
      recordItemId={id}
      title={label ? `Edit ${String(label)}` : `Edit ${def.singular.toLowerCase()}`}
      isLoading={state === "loading"}
      headerButtons={({ defaultButtons }) => (
        <>
          {headerButtons}
          {defaultButtons}
        </>
      )}
      saveButtonProps={{
        onClick: () => formRef.current?.submit(),
        loading: mutation.isPending,
        disabled: !record,
      }}
      footerButtons={({ defaultButtons }) => (
        <>
          {def.autosave && <AutosaveStatus state={autosave.state} />}
          {defaultButtons}
        </>
      )}
      deleteButtonProps={{
        confirmTitle: `Delete this ${def.singular.toLowerCase()}?`,
        confirmOkText: "Yes, delete",
        successNotification: { type: "success", message: `${def.singular} deleted` },
      }}
    >
      {record && id && <EditorsNotice resource={def.name} id={id} singular={def.singular} />}
      {record && (
        <ResourceForm
          key={`${record.id}:${formKey}`}
          def={def}
          formRef={formRef}
          initialData={toFormData(record, def.schema)}
          onSubmit={save}
          serverErrors={serverErrors}
          disabled={mutation.isPending}
          onEdit={def.autosave ? autosave.changed : undefined}
        />
      )}
      <ConflictDialog
        def={def}
        conflict={conflict}
        onReload={() => {
          setConflict(null);
          autosaved.current = false;
          autosave.reset();
          setFormKey((k) => k + 1);
        }}
        onOverwrite={() => {
          const c = conflict;
          setConflict(null);
          if (c) void save(c.mine, c.theirs);
        }}
        onCancel={() => setConflict(null)}
      />
    </Edit>
  );
}

/** With its custom fields (runtime-def.tsx). */
export default withRuntimeDef(ResourceEditPage);
