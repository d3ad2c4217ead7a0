import { Create } from "@refinedev/antd";
import { type HttpError, useForm } from "@refinedev/core";
import { useRef, useState } from "react";
import { defaultsOf, type FormData, toCreateBody } from "../form-schema";
import type { ResourceRecord, ScreenProps } from "../types";
import { withRuntimeDef } from "../with-runtime-def";
import { ResourceForm, type ResourceFormHandle } from "./resource-form";

/** `/<module>/<name>/create`: the generated create form; on save, "<Singular> created" and the record's page. */
function ResourceCreatePage({ def }: ScreenProps) {
  const formRef = useRef<ResourceFormHandle>(null);
  const [serverErrors, setServerErrors] = useState<HttpError["errors"]>();
  const { onFinish, mutation } = useForm<ResourceRecord, HttpError, FormData>({
    resource: def.name,
    action: "create",
    redirect: "show",
    successNotification: { type: "success", message: `${def.singular} created` },
  });

  const save = async (data: FormData) => {
    setServerErrors(undefined);
    try {
      await onFinish(toCreateBody(data, def.schema));
    } catch (error) {
      // The toast says what went wrong; the fields say where.
      setServerErrors((error as HttpError).errors);
    }
  };

  return (
    <Create
      resource={def.name}
      title={`Create ${def.singular.toLowerCase()}`}
      saveButtonProps={{ onClick: () => formRef.current?.submit(), loading: mutation.isPending }}
    >
      <ResourceForm
        def={def}
        formRef={formRef}
        initialData={defaultsOf(def.schema)}
        onSubmit={save}
        serverErrors={serverErrors}
        disabled={mutation.isPending}
      />
    </Create>
  );
}

/** With its custom fields (runtime-def.tsx). */
export default withRuntimeDef(ResourceCreatePage);
