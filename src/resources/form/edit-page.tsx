import { Edit } from "@refinedev/antd";
import { type HttpError, useForm, useNotification } from "@refinedev/core";
import { useRef, useState } from "react";
import { useParams } from "react-router";
import { type FormData, toFormData, toUpdateBody } from "../form-schema";
import { RecordNotFound } from "../record-not-found";
import type { ResourceRecord, ScreenProps } from "../types";
import { ResourceForm, type ResourceFormHandle } from "./resource-form";

/** `/<module>/<name>/edit/:id`: the generated edit form; sends only the changed fields. */
export default function ResourceEditPage({ def }: ScreenProps) {
  const { id } = useParams();
  const formRef = useRef<ResourceFormHandle>(null);
  const [serverErrors, setServerErrors] = useState<HttpError["errors"]>();
  const { open } = useNotification();
  const { onFinish, mutation, query, redirect } = useForm<ResourceRecord, HttpError, FormData>({
    resource: def.name,
    action: "edit",
    id,
    redirect: "show",
    mutationMode: "pessimistic",
    successNotification: { type: "success", message: "Changes saved" },
  });
  const record = query?.data?.data;
  const label = record?.[def.schema["x-label"]];

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

  return (
    <Edit
      resource={def.name}
      recordItemId={id}
      title={label ? `Edit ${String(label)}` : `Edit ${def.singular.toLowerCase()}`}
      isLoading={query?.isLoading}
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
      {query?.isError && <RecordNotFound def={def} status={query.error?.statusCode} />}
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
