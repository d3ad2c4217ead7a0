/**
 * The CRM's email calls (docs/crm-api.md, "Email") over the CRM service base: send, preview, a
 * client's messages, and the email templates the dialog offers.
 */
import { createServiceClient } from "../../../../providers/http";
import type {
  CrmMessage,
  EmailPreview,
  SendEmailRequest,
  SendEmailResponse,
} from "../../../../schemas/crm-messages";

const client = createServiceClient("crm");

export interface EmailTemplate {
  id: string;
  name: string;
  subject: string | null;
  body: string;
}

export const emailKeys = {
  templates: ["crm", "templates", "email"] as const,
  messages: (clientId: string) => ["crm", "messages", clientId] as const,
};

export async function sendEmail(request: SendEmailRequest): Promise<SendEmailResponse> {
  return (await client.post<SendEmailResponse>("/messages/email", request, { idempotent: true })).data;
}

export async function previewEmail(
  request: Pick<SendEmailRequest, "clientId" | "subject" | "body" | "templateId">,
): Promise<EmailPreview> {
  return (await client.post<EmailPreview>("/messages/email/preview", request)).data;
}

/** A client's messages, newest first (email and SMS). */
export async function listMessages(clientId: string): Promise<{ data: CrmMessage[]; total: number }> {
  const params = new URLSearchParams({ clientId, pageSize: "200", sort: "-created_at" });
  return (await client.get<{ data: CrmMessage[]; total: number }>(`/messages?${params}`)).data;
}

/** The email templates, by name (the dialog's choice; a hundred is plenty to pick from). */
export async function listEmailTemplates(): Promise<EmailTemplate[]> {
  const params = new URLSearchParams({
    pageSize: "100",
    sort: "name",
    filters: JSON.stringify([{ field: "channel", operator: "eq", value: "email" }]),
  });
  return (await client.get<{ data: EmailTemplate[] }>(`/templates?${params}`)).data.data;
}
