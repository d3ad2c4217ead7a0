/**
 * The email dialog of a client's page (spec §3 `emailModal`): To (the client, read-only), Cc and
 * Bcc, a template to start from, the subject, the body in the rich-text editor (loaded with the
 * dialog), merge fields inserted where the cursor is and previewed with the client's values,
 * files from the asset manager. Send (or Ctrl/⌘+Enter) posts it; the server's reasons show on
 * their fields. Default export, so the page loads it only when opened.
 */
import { EyeOutlined, SendOutlined } from "@ant-design/icons";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Editor } from "@tiptap/react";
import { Alert, App, Button, Flex, Form, Input, type InputRef, Modal, Select, Typography } from "antd";
import { lazy, Suspense, useCallback, useRef, useState } from "react";
import type { EmailPreview, SendEmailResponse } from "../../../../schemas/crm-messages";
import type { DamAsset } from "../../../../schemas/dam";
import type { MergeField } from "../../../../schemas/merge-fields";
import { getErrorMessage, getFieldErrors } from "../../../lib/errors";
import { crmKeys } from "../crm-api";
import { emailKeys, listEmailTemplates, previewEmail, sendEmail } from "./email-api";
import { attachmentsTotal, EmailAttachments } from "./email-attachments";
import { checkEmail, type EmailErrors, type EmailField, isEmptyHtml, placeErrors } from "./email-form";
import { insertIntoEditor, insertIntoField } from "./insert-at-caret";
import { MergeFieldMenu } from "./merge-field-menu";
import "./crm-email.css";

const RichTextEditor = lazy(() => import("../../../resources/form/rich-text-editor"));

/** The client an email goes to, as the client's page has it. */
export interface EmailClient {
  id: string;
  name: string;
  email?: string | null;
  consent_email?: boolean;
  /** The client's custom fields the insert menu offers (`client.<key>`). */
  customFields?: readonly MergeField[];
}

export interface EmailModalProps {
  client: EmailClient;
  onClose: () => void;
  /** Answer inside this conversation (its reply address and threading). */
  threadId?: string | null;
  initialSubject?: string;
  onSent?: (sent: SendEmailResponse) => void;
}

export default function EmailModal({
  client,
  onClose,
  threadId,
  initialSubject = "",
  onSent,
}: EmailModalProps) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const templates = useQuery({ queryKey: emailKeys.templates, queryFn: listEmailTemplates });
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [subject, setSubject] = useState(initialSubject);
  const [body, setBody] = useState<string | undefined>(undefined);
  const [copies, setCopies] = useState(false);
  const [cc, setCc] = useState<string[]>([]);
  const [bcc, setBcc] = useState<string[]>([]);
  const [assets, setAssets] = useState<DamAsset[]>([]);
  const [errors, setErrors] = useState<EmailErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [preview, setPreview] = useState<EmailPreview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const editor = useRef<Editor | null>(null);
  const subjectInput = useRef<InputRef>(null);
  const lastFocus = useRef<"subject" | "body">("body");
  const onEditor = useCallback((e: Editor | null) => {
    editor.current = e;
  }, []);

  const dirty = subject !== initialSubject || !isEmptyHtml(body) || assets.length > 0;
  const clearError = (field: EmailField) => setErrors((now) => ({ ...now, [field]: undefined }));

  const send = useMutation({
    mutationFn: sendEmail,
    onSuccess: (sent) => {
      message.success("Sent");
      void queryClient.invalidateQueries({ queryKey: crmKeys.timelineOf(client.id) });
      void queryClient.invalidateQueries({ queryKey: emailKeys.messages(client.id) });
      onSent?.(sent);
      onClose();
    },
    onError: (error) => {
      const { fields, other } = placeErrors(getFieldErrors(error));
      setErrors(fields);
      setFailure(Object.keys(fields).length && !other ? null : (other ?? getErrorMessage(error)));
    },
  });

  const submit = () => {
    if (send.isPending) return;
    const local = checkEmail({ subject, body, cc, bcc, attachmentsTooBig: attachmentsTotal(assets).tooBig });
    setErrors(local);
    setFailure(null);
    if (Object.keys(local).length) return;
    send.mutate({
      clientId: client.id,
      subject: subject.trim(),
      body,
      templateId,
      threadId: threadId ?? null,
      cc,
      bcc,
      assetIds: assets.map((a) => a.id),
    });
  };

  const applyTemplate = (id: string | null) => {
    const template = templates.data?.find((t) => t.id === id);
    const apply = () => {
      setTemplateId(id);
      clearError("template");
      if (!template) return;
      if (template.subject) setSubject(template.subject);
      setBody(template.body);
      setPreview(null);
    };
    if (template && !isEmptyHtml(body))
      modal.confirm({
        title: `Start from “${template.name}”?`,
        content: "The template's subject and message replace what you wrote.",
        okText: "Use the template",
        onOk: apply,
      });
    else apply();
  };

  const insertField = (token: string) => {
    if (lastFocus.current === "subject") {
      insertIntoField(subjectInput.current?.input, subject, token, setSubject);
      clearError("subject");
    } else {
      insertIntoEditor(editor.current, token);
      clearError("body");
    }
  };

  const showPreview = async () => {
    if (preview) return setPreview(null);
    setPreviewError(null);
    try {
      setPreview(await previewEmail({ clientId: client.id, subject, body: body ?? "", templateId }));
    } catch (error) {
      setPreviewError(getFieldErrors(error)[0]?.message ?? getErrorMessage(error));
    }
  };

  const close = () => {
    if (send.isPending) return;
    if (!dirty) return onClose();
    modal.confirm({
      title: "Discard this email?",
      content: "What you wrote is not kept.",
      okText: "Discard",
      okButtonProps: { danger: true },
      cancelText: "Keep writing",
      onOk: onClose,
    });
  };

  const help = (field: EmailField) =>
    errors[field] ? { validateStatus: "error" as const, help: errors[field] } : {};

  return (
    <Modal
      open
      title={`Email ${client.name}`}
      width={780}
      onCancel={close}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Flex justify="space-between" align="center" gap={8}>
          <Typography.Text type="secondary">Ctrl+Enter (⌘+Enter) sends</Typography.Text>
          <Flex gap={8}>
            <Button onClick={close} disabled={send.isPending}>
              Cancel
            </Button>
            <Button
              type="primary"
              icon={<SendOutlined aria-hidden />}
              loading={send.isPending}
              onClick={submit}
            >
              {send.isPending ? "Sending…" : "Send"}
            </Button>
          </Flex>
        </Flex>
      }
    >
      {/* Capture: Ctrl+Enter sends before the editor reads it as a line break. */}
      <div
        className="crm-email"
        onKeyDownCapture={(e) => {
          if ((e.ctrlKey || e.metaKey) && e.key === "Enter") {
            e.preventDefault();
            e.stopPropagation();
            submit();
          }
        }}
      >
        {failure && (
          <Alert type="error" showIcon message={failure} style={{ marginBottom: 12 }} role="alert" />
        )}
        <Form layout="vertical" component="div" requiredMark={false}>
          <Form.Item label="To" htmlFor="crm-email-to" style={{ marginBottom: 8 }}>
            <Flex gap={8} align="center">
              <Input id="crm-email-to" readOnly value={`${client.name} <${client.email ?? ""}>`} />
              {!copies && (
                <Button type="link" onClick={() => setCopies(true)}>
                  Cc/Bcc
                </Button>
              )}
            </Flex>
          </Form.Item>
          {copies && (
            <Flex gap={12}>
              {(
                [
                  ["cc", "Cc", cc, setCc],
                  ["bcc", "Bcc", bcc, setBcc],
                ] as const
              ).map(([field, label, value, set]) => (
                <Form.Item
                  key={field}
                  label={label}
                  htmlFor={`crm-email-${field}`}
                  style={{ flex: 1, marginBottom: 8 }}
                  {...help(field)}
                >
                  <Select
                    id={`crm-email-${field}`}
                    mode="tags"
                    open={false}
                    suffixIcon={null}
                    tokenSeparators={[",", ";", " "]}
                    placeholder="Addresses, separated by commas"
                    value={value}
                    onChange={(next: string[]) => {
                      set(next.map((a) => a.trim()).filter(Boolean));
                      clearError(field);
                    }}
                  />
                </Form.Item>
              ))}
            </Flex>
          )}
          <Form.Item
            label="Template"
            htmlFor="crm-email-template"
            style={{ marginBottom: 8 }}
            {...help("template")}
          >
            <Select
              id="crm-email-template"
              allowClear
              placeholder={
                templates.isError
                  ? "The templates could not be loaded: open to try again"
                  : templates.data?.length === 0
                    ? "No email templates yet"
                    : "No template"
              }
              loading={templates.isFetching}
              onOpenChange={(opening) => {
                if (opening && templates.isError) void templates.refetch();
              }}
              value={templateId}
              onChange={(id: string | undefined) => applyTemplate(id ?? null)}
              options={(templates.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
              showSearch
              optionFilterProp="label"
            />
          </Form.Item>
          <Form.Item
            label="Subject"
            htmlFor="crm-email-subject"
            style={{ marginBottom: 8 }}
            {...help("subject")}
          >
            <Input
              id="crm-email-subject"
              ref={subjectInput}
              maxLength={200}
              value={subject}
              autoFocus
              onFocus={() => {
                lastFocus.current = "subject";
              }}
              onChange={(e) => {
                setSubject(e.target.value);
                clearError("subject");
              }}
            />
          </Form.Item>
          <Form.Item
            label="Message"
            htmlFor="crm-email-body"
            style={{ marginBottom: 8 }}
            {...help("body")}
            extra={
              <Flex gap={8} style={{ marginTop: 6 }} wrap>
                <MergeFieldMenu
                  custom={client.customFields}
                  onInsert={insertField}
                  disabled={send.isPending}
                />
                <Button
                  size="small"
                  icon={<EyeOutlined aria-hidden />}
                  aria-pressed={!!preview}
                  onClick={showPreview}
                >
                  {preview ? "Hide preview" : `Preview for ${client.name}`}
                </Button>
              </Flex>
            }
          >
            <div
              onFocusCapture={() => {
                lastFocus.current = "body";
              }}
            >
              <Suspense
                fallback={<Input.TextArea rows={8} disabled aria-label="Message (loading the editor)" />}
              >
                <RichTextEditor
                  id="crm-email-body"
                  label="Message"
                  value={body}
                  onChange={(html) => {
                    if (html === body) return;
                    setBody(html);
                    clearError("body");
                  }}
                  invalid={Boolean(errors.body)}
                  disabled={send.isPending}
                  onEditor={onEditor}
                />
              </Suspense>
            </div>
          </Form.Item>
          {previewError && (
            <Alert type="warning" showIcon message={previewError} style={{ marginBottom: 8 }} />
          )}
          {preview && (
            <section className="crm-email-preview" aria-label="Preview">
              <Typography.Text strong>{preview.subject}</Typography.Text>
              <div
                className="atelier-rich-text__content"
                // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server, values escaped
                dangerouslySetInnerHTML={{ __html: preview.html }}
              />
            </section>
          )}
          <Form.Item label="Attachments" style={{ marginBottom: 0 }}>
            <EmailAttachments
              value={assets}
              onChange={(next) => {
                setAssets(next);
                clearError("attachments");
              }}
              disabled={send.isPending}
              error={errors.attachments}
            />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
