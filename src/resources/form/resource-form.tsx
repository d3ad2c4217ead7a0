import { useWarnAboutChange } from "@refinedev/core";
import Form from "@rjsf/antd";
import type { default as CoreForm, IChangeEvent } from "@rjsf/core";
import type { ErrorSchema } from "@rjsf/utils";
import { type Ref, useEffect, useMemo, useState } from "react";
import { resourceByName } from "../../../resources";
import type { ResourceDefinition } from "../../../resources/contract";
import {
  liftedArrayFields,
  liftItemErrors,
  type ServerFieldErrors,
  toErrorSchema,
  withoutFieldErrors,
} from "../form-errors";
import {
  clearStaleDependents,
  deriveUiSchema,
  type FormData,
  formSchemaOf,
  keyFieldsToFill,
  relationDependencies,
  withKeysFromNames,
} from "../form-schema";
import { formValidator } from "../validator";
import type { ResourceFormContext } from "./relation-widget";
import { FORM_TEMPLATES, FORM_WIDGETS } from "./widgets";

/** The rjsf form instance, for the page's Save button (`ref.current.submit()`). */
export type ResourceFormHandle = CoreForm<FormData> | null;

interface ResourceFormProps {
  def: ResourceDefinition;
  initialData: FormData;
  onSubmit: (data: FormData) => void;
  /** The server's per-field messages of the last failed save (Refine `HttpError.errors`). */
  serverErrors?: ServerFieldErrors;
  formRef: Ref<ResourceFormHandle>;
  disabled?: boolean;
  /** Told the values after each edit by the user (autosave). */
  onEdit?: (data: FormData) => void;
}

/**
 * Two columns on wide screens (rjsf antd reads `colSpan` from the form context, by widget,
 * then field, then type): long text and lists take the whole row.
 */
const FORM_LAYOUT = {
  colSpan: {
    ...{ textarea: 24, richtext: 24, media: 24, array: 24, object: 24 },
    ...{
      relation: 12,
      select: 12,
      radio: 12,
      checkbox: 12,
      string: 12,
      number: 12,
      integer: 12,
      boolean: 12,
    },
  },
  rowGutter: 24,
};

const changedFields = (before: FormData, after: FormData): string[] =>
  Object.keys({ ...before, ...after }).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));

/**
 * A resource's create/edit form: react-jsonschema-form (antd theme) over the schema's
 * writable fields, validated like the server validates the body, with the server's own
 * field messages shown on the fields after a failed save.
 */
export function ResourceForm({
  def,
  initialData,
  onSubmit,
  serverErrors,
  formRef,
  disabled,
  onEdit,
}: ResourceFormProps) {
  const schema = useMemo(() => formSchemaOf(def.schema), [def]);
  const uiSchema = useMemo(() => deriveUiSchema(def, resourceByName), [def]);
  const dependencies = useMemo(() => relationDependencies(def, resourceByName), [def]);
  const lifted = useMemo(() => liftedArrayFields(def.schema, uiSchema), [def, uiSchema]);
  const [formData, setFormData] = useState<FormData>(initialData);
  // Decided once, from the first values: a record that has its key keeps it.
  const [keyFields] = useState(() => keyFieldsToFill(def.schema, initialData));
  const [extraErrors, setExtraErrors] = useState<ErrorSchema>({});
  const { setWarnWhen } = useWarnAboutChange();

  useEffect(() => setExtraErrors(toErrorSchema(serverErrors, lifted)), [serverErrors, lifted]);

  const handleChange = ({ formData: changed }: IChangeEvent<FormData>, fieldId?: string) => {
    const next = withKeysFromNames(
      def.schema,
      fieldId ? keyFields : [],
      formData,
      clearStaleDependents(formData, changed ?? {}, dependencies),
    );
    const fields = changedFields(formData, next);
    if (fields.length === 0) return;
    // rjsf also reports the defaults it fills in; only a field edit is an unsaved change.
    if (fieldId) setWarnWhen(true);
    setExtraErrors((current) => withoutFieldErrors(current, fields));
    setFormData(next);
    if (fieldId) onEdit?.(next);
  };

  const formContext: ResourceFormContext = { formData, ...FORM_LAYOUT };

  return (
    <div style={{ maxWidth: 880 }}>
      <Form
        ref={formRef}
        schema={schema}
        uiSchema={uiSchema}
        validator={formValidator}
        widgets={FORM_WIDGETS}
        templates={FORM_TEMPLATES}
        formData={formData}
        formContext={formContext}
        extraErrors={extraErrors}
        transformErrors={(errors) => liftItemErrors(errors, lifted)}
        onChange={handleChange}
        onSubmit={({ formData: submitted }) => onSubmit(submitted ?? {})}
        disabled={disabled}
        showErrorList={false}
        noHtml5Validate
        focusOnFirstError
      />
    </div>
  );
}
