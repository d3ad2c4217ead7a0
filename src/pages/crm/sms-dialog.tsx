/**
 * The SMS dialog (spec §3 `smsModal`), opened from a client's page: the client's number, a
 * template to start from, merge fields to insert, and the text with a live counter of its
 * characters and SMS parts (GSM-7 or Unicode, counted on the text as the client gets it). A client
 * without a phone, without SMS consent, or opted out cannot be texted: the dialog says why and
 * Send stays off. Without a provider, it says the SMS will wait in the SMS outbox.
 */

import { useGetIdentity, useList } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Input, Modal, Select, Space, Typography } from "antd";
import type { TextAreaRef } from "antd/es/input/TextArea";
import { useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import type { MeResponse } from "../../../schemas/auth";
import {
  type MergeField,
  mergeFieldToken,
  mergeValuesOf,
  renderMergeFields,
  unknownMergeFields,
} from "../../../schemas/merge-fields";
import { SMS_MAX_LENGTH, smsRefusal } from "../../../schemas/sms";
import { countSms, smsCountLabel } from "../../../schemas/sms-segments";
import { getErrorMessage } from "../../lib/errors";
import type { ResourceRecord } from "../../resources/types";
import { crmKeys } from "./crm-api";
import { insertIntoField } from "./email/insert-at-caret";
import { MergeFieldMenu } from "./email/merge-field-menu";
import { getSmsSettings, sendSms, smsKeys } from "./sms-api";
import "./sms.css";

const text = (v: unknown) => (typeof v === "string" ? v : null);

export interface SmsDialogProps {
  client: ResourceRecord;
  /** The client's custom fields the insert menu offers (`client.<key>`). */
  customFields?: readonly MergeField[];
  onClose: () => void;
}

export default function SmsDialog({ client, customFields, onClose }: SmsDialogProps) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { data: me } = useGetIdentity<MeResponse>();
  const settings = useQuery({ queryKey: smsKeys.settings, queryFn: getSmsSettings, staleTime: 60_000 });
  const templates = useList<ResourceRecord>({
    resource: "templates",
    filters: [{ field: "channel", operator: "eq", value: "sms" }],
    sorters: [{ field: "name", order: "asc" }],
    pagination: { pageSize: 100 },
  });
  const [body, setBody] = useState("");
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const area = useRef<TextAreaRef>(null);

  const recipient = {
    name: String(client.name),
    phone: text(client.phone),
    consent_sms: client.consent_sms === true,
    sms_opted_out_at: text(client.sms_opted_out_at),
  };
  const refusal = smsRefusal(recipient);
  const values = useMemo(
    () =>
      mergeValuesOf(
        {
          name: String(client.name),
          email: text(client.email),
          phone: text(client.phone),
          company: text(client.company),
          job_title: text(client.job_title),
          custom: (client.custom as Record<string, unknown> | null) ?? null,
        },
        me ? { first_name: me.first_name, last_name: me.last_name, email: me.email } : null,
      ),
    [client, me],
  );
  const unknown = unknownMergeFields(body, values);
  const rendered = renderMergeFields(body, values).trim();
  const count = countSms(rendered);
  const tooLong = count.characters > SMS_MAX_LENGTH;
  const blocked = refusal ?? (!rendered ? "Write the message first" : null);

  const chooseTemplate = (id: string | undefined) => {
    setTemplateId(id ?? null);
    const template = templates.result?.data.find((t) => t.id === id);
    if (template) setBody(String(template.body ?? ""));
  };

  /** Puts `{{key}}` where the cursor is (or at the end); the cursor goes on after it. */
  const insertField = (token: string) =>
    insertIntoField(area.current?.resizableTextArea?.textArea, body, token, setBody);

  const send = async () => {
    if (blocked || unknown.length || tooLong || sending) return;
    setSending(true);
    setError(null);
    try {
      const sms = await sendSms({ clientId: String(client.id), body, templateId });
      message.success(
        sms.status === "stored"
          ? "SMS kept in the SMS outbox (no SMS provider is configured)"
          : "SMS on its way",
      );
      void queryClient.invalidateQueries({ queryKey: crmKeys.timelineOf(String(client.id)) });
      onClose();
    } catch (e) {
      setError(getErrorMessage(e));
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open
      title={`SMS to ${recipient.name}`}
      onCancel={onClose}
      width={560}
      footer={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="primary"
            onClick={send}
            loading={sending}
            disabled={Boolean(blocked) || unknown.length > 0 || tooLong}
            title={blocked ?? undefined}
          >
            Send
          </Button>
        </Space>
      }
    >
      <div className="crm-sms-dialog">
        <div className="crm-sms-to">
          <Typography.Text type="secondary">To</Typography.Text>{" "}
          <Typography.Text strong>{recipient.phone ?? "no phone number"}</Typography.Text>
        </div>
        {refusal && (
          <Alert type="warning" showIcon message="This client cannot be texted" description={refusal} />
        )}
        {settings.data && !settings.data.sends && !refusal && (
          <Alert
            type="info"
            showIcon
            message={
              <>
                No SMS provider is configured: the SMS will be kept in the{" "}
                <Link to="/crm/sms-outbox">SMS outbox</Link>.
              </>
            }
          />
        )}
        <Space.Compact block className="crm-sms-pickers">
          <Select
            allowClear
            aria-label="Template"
            placeholder="Start from a template"
            value={templateId ?? undefined}
            onChange={chooseTemplate}
            loading={templates.query.isPending}
            options={(templates.result?.data ?? []).map((t) => ({
              value: String(t.id),
              label: String(t.name),
            }))}
            notFoundContent="No SMS templates yet"
            style={{ width: "55%" }}
            disabled={Boolean(refusal)}
          />
          <MergeFieldMenu
            label="Insert a merge field"
            button={{ style: { width: "45%" } }}
            custom={customFields}
            onInsert={insertField}
            disabled={Boolean(refusal)}
          />
        </Space.Compact>
        <Input.TextArea
          ref={area}
          aria-label="Message"
          value={body}
          onChange={(e) => setBody(e.target.value)}
          autoSize={{ minRows: 4, maxRows: 12 }}
          placeholder="Write the message…"
          disabled={Boolean(refusal)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void send();
            }
          }}
        />
        <div className="crm-sms-counter" aria-live="polite">
          <Typography.Text type={tooLong ? "danger" : "secondary"} data-testid="sms-counter">
            {smsCountLabel(count)}
          </Typography.Text>
          {count.segments > 0 && !tooLong && (
            <Typography.Text type="secondary">
              {count.remaining} left in this {count.segments > 1 ? "part" : "SMS"}
            </Typography.Text>
          )}
          {tooLong && <Typography.Text type="danger">At most {SMS_MAX_LENGTH} characters</Typography.Text>}
        </div>
        {unknown.length > 0 && (
          <Typography.Text type="danger">
            Unknown merge field{unknown.length > 1 ? "s" : ""}: {unknown.map(mergeFieldToken).join(", ")}
          </Typography.Text>
        )}
        {rendered && rendered !== body.trim() && unknown.length === 0 && (
          <section className="crm-sms-preview" aria-label="As the client gets it">
            <Typography.Text type="secondary">As {recipient.name} gets it</Typography.Text>
            <p>{rendered}</p>
          </section>
        )}
        {error && <Alert type="error" showIcon message={error} />}
      </div>
    </Modal>
  );
}
