/**
 * Example automations for tests and docs: a complete one that uses every kind of trigger field,
 * step and action, so a check or a schema change that refuses a good flow shows at once.
 */
import type { AutomationDefinition } from "./automation";

/**
 * Client created (from India) → condition on the score → yes: welcome email, wait 2 days, then
 * wait for a reply (event: tag "engaged"; timeout: SMS, create a task, HTTP call); no: enrol in a
 * sequence after waiting until a date.
 */
export const completeAutomation = (): AutomationDefinition => ({
  trigger: {
    kind: "client-created",
    filter: [{ field: "country", operator: "eq", value: "IN" }],
  },
  steps: [
    {
      id: "check-score",
      kind: "condition",
      condition: {
        operator: "or",
        value: [
          { field: "score", operator: "gte", value: 50 },
          {
            operator: "and",
            value: [
              { field: "email", operator: "endswith", value: ".edu" },
              { field: "tags", operator: "nnull" },
            ],
          },
        ],
      },
      branches: {
        yes: [
          {
            id: "welcome",
            kind: "action",
            type: "send_email",
            inputs: { to: "{{client.email}}", subject: "Welcome, {{client.first_name}}", body: "Hello!" },
          },
          { id: "pause", kind: "delay", mode: "for", amount: 2, unit: "days" },
          {
            id: "await-reply",
            kind: "wait",
            event: "email-replied",
            timeout: { amount: 3, unit: "days" },
            branches: {
              event: [{ id: "tag-engaged", kind: "action", type: "add_tag", inputs: { tag: "engaged" } }],
              timeout: [
                {
                  id: "nudge",
                  kind: "action",
                  type: "send_sms",
                  inputs: { to: "{{client.phone}}", body: "Did you see our mail?" },
                },
                {
                  id: "call-task",
                  kind: "action",
                  type: "create_record",
                  inputs: { resource: "task", fields: { title: "Call {{client.name}}" } },
                },
                {
                  id: "notify",
                  kind: "action",
                  type: "http_request",
                  inputs: {
                    method: "POST",
                    url: "https://hooks.example.com/leads/{{client.id}}",
                    headers: [{ name: "X-Source", value: "atelier" }],
                    body: '{"client": "{{client.id}}", "score": {{client.score}}}',
                  },
                },
              ],
            },
          },
        ],
        no: [
          {
            id: "later",
            kind: "delay",
            mode: "until",
            until: "2030-01-06T09:00",
            timeZone: "Asia/Kolkata",
          },
          {
            id: "enrol",
            kind: "action",
            type: "enrol_in_sequence",
            inputs: { sequenceId: "0b7c5a3e-9d1f-4c2a-8e6b-1f2d3c4b5a69" },
          },
          {
            id: "mark",
            kind: "action",
            type: "update_record",
            inputs: { resource: "client", recordId: "{{client.id}}", fields: { source: "nurture" } },
          },
        ],
      },
    },
  ],
});

/** Started by its incoming webhook, it makes one task titled `title` (variables allowed). */
export const webhookTaskAutomation = (title: string): AutomationDefinition => ({
  trigger: { kind: "webhook" },
  steps: [
    {
      id: "task",
      kind: "action",
      type: "create_record",
      inputs: { resource: "task", fields: { title } },
    },
  ],
});
