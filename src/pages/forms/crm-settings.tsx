/**
 * What an answer does in the CRM: whether it creates or updates the client of its email
 * address, which fields name the client (left empty, they are found by kind and id), and a
 * sequence to enrol them in.
 */
import { Card, Flex, Form, Select, Switch, Typography } from "antd";
import {
  type CrmSettings,
  crmFieldsOf,
  defaultCrmSettings,
  type FormFieldDef,
} from "../../../schemas/form-definition";
import { PanelItem } from "./panel-item";

interface CrmSettingsCardProps {
  crm: CrmSettings | undefined;
  fields: readonly FormFieldDef[];
  messagesAt: (path: string) => string[];
  onChange: (crm: CrmSettings, path: string) => void;
  /** The sequences one may enrol in; absent while the CRM's sequences are unavailable. */
  sequences?: ReadonlyArray<{ value: string; label: string }>;
}

const PICKS: ReadonlyArray<{
  key: "emailField" | "nameField" | "phoneField" | "companyField";
  label: string;
  found: "email" | "name" | "phone" | "company";
  kinds: readonly string[];
}> = [
  { key: "emailField", label: "Email", found: "email", kinds: ["email"] },
  { key: "nameField", label: "Name", found: "name", kinds: ["text", "hidden", "dropdown"] },
  { key: "phoneField", label: "Phone", found: "phone", kinds: ["phone"] },
  { key: "companyField", label: "Company", found: "company", kinds: ["text", "hidden", "dropdown"] },
];

export function CrmSettingsCard({
  crm = defaultCrmSettings(),
  fields,
  messagesAt,
  onChange,
  sequences,
}: CrmSettingsCardProps) {
  const set = <K extends keyof CrmSettings>(key: K, value: CrmSettings[K]) =>
    onChange({ ...crm, [key]: value }, key);
  const found = crmFieldsOf(fields, crm);
  return (
    <Card
      size="small"
      title="Clients in the CRM"
      extra={
        <Flex gap={8} align="center">
          <label htmlFor="fs-crm-on">Create or update a client from each answer</label>
          <Switch id="fs-crm-on" checked={crm.createClients} onChange={(on) => set("createClients", on)} />
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary">
        One client per email address: a returning respondent updates their client, and each answer shows on
        the client's timeline with its campaign.
      </Typography.Paragraph>
      <Form layout="vertical" component="div" disabled={!crm.createClients}>
        {PICKS.map((pick) => {
          const auto = found[pick.found];
          const id = `fs-crm-${pick.found}`;
          return (
            <PanelItem
              key={pick.key}
              id={id}
              label={`${pick.label} field`}
              message={messagesAt(pick.key)}
              extra={!crm[pick.key] && auto ? `Found by itself: ${auto.label} (${auto.id})` : undefined}
            >
              <Select
                id={id}
                allowClear
                placeholder={pick.key === "emailField" ? "The first email field" : "Found by itself"}
                value={crm[pick.key] ?? undefined}
                options={fields
                  .filter((f) => pick.kinds.includes(f.kind))
                  .map((f) => ({ value: f.id, label: `${f.label} (${f.id})` }))}
                onChange={(value?: string) => set(pick.key, value ?? null)}
                notFoundContent="No field of this kind"
              />
            </PanelItem>
          );
        })}
        {sequences && (
          <PanelItem
            id="fs-crm-sequence"
            label="Enrol in sequence"
            message={messagesAt("sequenceId")}
            className="fs-last"
          >
            <Select
              id="fs-crm-sequence"
              allowClear
              placeholder="None"
              value={crm.sequenceId ?? undefined}
              options={[...sequences]}
              onChange={(value?: string) => set("sequenceId", value ?? null)}
              notFoundContent="No sequence yet"
            />
          </PanelItem>
        )}
      </Form>
    </Card>
  );
}
