/**
 * A module's signed outbound webhooks over its service base (`/cms/webhooks`,
 * `/forms/webhooks`): the hooks, a new hook's secret (answered once), and each hook's delivery
 * log. One set of calls per base, with the session rules of every client.
 */
import { createServiceClient } from "../../../providers/http";

/** The service bases whose module serves `/webhooks`. */
export type WebhookBase = "cms" | "forms";

export interface Webhook {
  id: string;
  name: string;
  url: string;
  events: string[];
  active: boolean;
}

export interface WebhookDelivery {
  id: string;
  event: string;
  state: "pending" | "delivered" | "failed";
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  createdAt: string;
}

export interface WebhookBody {
  name: string;
  url: string;
  events: string[];
}

/**
 * The webhook calls of one module.
 *
 * @example
 * const api = webhooksApi("forms");
 * await api.create({ name: "CRM", url: "https://crm.example.com/hook", events: ["submission.created"] });
 */
export function webhooksApi(base: WebhookBase) {
  const client = createServiceClient(base);
  const one = (id: string) => `/webhooks/${encodeURIComponent(id)}`;
  return {
    list: async (): Promise<Webhook[]> => (await client.get<{ data: Webhook[] }>("/webhooks")).data.data,
    create: async (body: WebhookBody): Promise<Webhook & { secret: string }> =>
      (await client.post<Webhook & { secret: string }>("/webhooks", body)).data,
    update: async (id: string, body: Partial<Omit<Webhook, "id">>): Promise<Webhook> =>
      (await client.patch<Webhook>(one(id), body)).data,
    remove: async (id: string): Promise<void> => {
      await client.delete(one(id));
    },
    deliveries: async (id: string): Promise<WebhookDelivery[]> =>
      (await client.get<{ data: WebhookDelivery[] }>(`${one(id)}/deliveries`)).data.data,
  };
}

export type WebhooksApi = ReturnType<typeof webhooksApi>;
