import { Edit } from "@refinedev/antd";
import { type HttpError, useForm, useNotification, useOne } from "@refinedev/core";
import { useRef, useState } from "react";
import { useParams } from "react-router";
import { type FormData, toFormData, toUpdateBody } from "../form-schema";
import { placeOfResource, RecordUnavailablePage } from "../record-not-found";
import { recordState } from "../show/record-state";
import type { ResourceRecord, ScreenProps } from "../types";
import { ResourceForm, type ResourceFormHandle } from "./resource-form";

/** `/<module>/<name>/edit/:id`: the generated edit form; sends only the changed fields. */
export default function ResourceEditPage({ def }: ScreenProps) {
  const { id } = useParams();
  const formRef = useRef<ResourceFormHandle>(null);
  const [serverErrors, setServerErrors] = useState<HttpError["errors"]>();
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
    queryOptions: { enabled: false },
  });
  const record = query.data?.data;
  const label = record?.[def.schema["x-label"]];
  const state = recordState(id, query);

  const save = async (data: FormData) => {
    if (!record) return;
    const body = toUpdateBody(data, record, def.schema);
    if (Object.keys(body).length === 0) {
      open?.({ type: "success", message: "No changes to save" });
      redirect("show", record.id);
      return;
    }
    setServerErrors(undefined);
    try {
      await onFinish(body);
    } catch (error) {
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
      saveButtonProps={{
        onClick: () => formRef.current?.submit(),
        loading: mutation.isPending,
        disabled: !record,
      }}
      deleteButtonProps={{
        confirmTitle: `Delete this ${def.singular.toLowerCase()}?`,
        confirmOkText: "Yes, delete",
        successNotification: { type: "success", message: `${def.singular} deleted` },
      }}
    >
      {record && (
        <ResourceForm
          key={record.id}
          def={def}
          formRef={formRef}
          initialData={toFormData(record, def.schema)}
          onSubmit={save}
          serverErrors={serverErrors}
          disabled={mutation.isPending}
        />
      )}
    </Edit>
  );
}
