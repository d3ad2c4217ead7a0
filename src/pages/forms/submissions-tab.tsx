/**
 * A form's Submissions tab: its answers on the generated list (submissions-definition.ts),
 * one column per field of the definition the public answers, with the list's search,
 * filters, sort, CSV export, delete and live updates; a row opens the whole submission in a
 * drawer. Lazy-loaded by the form's page.
 */
import { useOne } from "@refinedev/core";
import { useQuery } from "@tanstack/react-query";
import { Empty, Typography } from "antd";
import { useMemo, useState } from "react";
import { LoadError } from "../../components/load-error";
import { PageLoader } from "../../components/page-loader";
import { loadFailed } from "../../lib/load-failure";
import ResourceListPage from "../../resources/list/list-page";
import type { ListEmbedding, ResourceRecord } from "../../resources/types";
import { type FormRecord, formKeys, getDraft, getFormVersion, publicFormUrl } from "./forms-api";
import { submissionsDefinition } from "./submissions-definition";
import { SubmissionDrawer } from "./submissions-drawer";

/** What an empty list says: how to get answers, with the form's public address once published. */
function NoAnswers({ form }: { form: FormRecord }) {
  if (form.status !== "published")
    return <Empty description="No answers yet — publish the form, then share it to get some" />;
  const url = publicFormUrl(form.slug);
  const description = form.accepting
    ? "No answers yet — share the form to get some"
    : "No answers yet — the form is closed: turn on Accepting answers, then share it";
  return (
    <Empty description={description}>
      <Typography.Paragraph
        copyable={{ text: url, tooltips: ["Copy the link", "Copied"] }}
        style={{ margin: 0 }}
      >
        <Typography.Link href={url} target="_blank" rel="noopener noreferrer">
          {url}
        </Typography.Link>
      </Typography.Paragraph>
    </Empty>
  );
}

/**
 * The fields the public answers: the published definition (the form page's own query of it,
 * shared), or the draft of a form never published. Read again when the form is published
 * anew (its `published_version` changes, live).
 */
function useAnsweredDefinition(formId: string, form: FormRecord | undefined) {
  const version = form?.published_version ?? 0;
  const published = useQuery({
    queryKey: formKeys.version(formId, version),
    queryFn: () => getFormVersion(formId, version),
    enabled: version > 0,
    staleTime: 60_000,
  });
  const draft = useQuery({
    queryKey: ["forms", "draft-fields", formId],
    queryFn: () => getDraft(formId),
    enabled: Boolean(form) && version === 0,
  });
  return version > 0 ? published : draft;
}

export function FormSubmissions({ formId }: { formId: string }) {
  const { query: formQuery } = useOne<FormRecord>({
    resource: "forms",
    id: formId,
    errorNotification: false,
  });
  const form = formQuery.data?.data;
  const definition = useAnsweredDefinition(formId, form);
  const fields = definition.data?.definition.fields;
  const def = useMemo(
    () => (fields ? submissionsDefinition(formId, { fields }) : undefined),
    [formId, fields],
  );
  const [open, setOpen] = useState<ResourceRecord | null>(null);
  const embedding = useMemo<ListEmbedding | undefined>(
    () => (form ? { onOpen: setOpen, empty: <NoAnswers form={form} /> } : undefined),
    [form],
  );

  if (loadFailed(formQuery))
    return <LoadError what="form" error={formQuery.error} onRetry={() => formQuery.refetch()} compact />;
  if (loadFailed(definition))
    return (
      <LoadError what="form's fields" error={definition.error} onRetry={() => definition.refetch()} compact />
    );
  if (!def || !embedding || !fields) return <PageLoader />;
  return (
    <>
      <ResourceListPage key={def.name} def={def} embedded={embedding} />
      <SubmissionDrawer def={def} fields={fields} record={open} onClose={() => setOpen(null)} />
    </>
  );
}

export default FormSubmissions;
