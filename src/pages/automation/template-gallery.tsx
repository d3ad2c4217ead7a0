/**
 * "Start from a template" (issue 30): the ready-made flows of schemas/automation-templates.ts as
 * cards (name, one line, trigger → steps), each a button. Choosing one asks for the new
 * automation's name, then makes it (`POST /api/automations/from-template`: a draft, nothing
 * published) and opens its builder with the choices left to make marked. Loaded with the
 * dialog only.
 */
import {
  CalendarOutlined,
  FileDoneOutlined,
  FormOutlined,
  ShoppingCartOutlined,
  ThunderboltOutlined,
  TrophyOutlined,
  UserAddOutlined,
} from "@ant-design/icons";
import { useInvalidate } from "@refinedev/core";
import { Alert, Button, Form, Input, Modal, Space, Tag, Typography } from "antd";
import { type ComponentType, useState } from "react";
import { useNavigate } from "react-router";
import { createServiceClient } from "../../../providers/http";
import { automations } from "../../../resources/automations";
import { ACTION_LABELS, STEP_KIND_LABELS, TRIGGER_LABELS, walkSteps } from "../../../schemas/automation";
import { AUTOMATION_TEMPLATES, type AutomationTemplate } from "../../../schemas/automation-templates";
import { getErrorMessage, getFieldErrors } from "../../lib/errors";
import { recordPath } from "../../resources/routes";
import "./template-gallery.css";

const client = createServiceClient("api");

const ICONS: Readonly<Record<string, ComponentType>> = {
  CalendarOutlined,
  FileDoneOutlined,
  FormOutlined,
  ShoppingCartOutlined,
  TrophyOutlined,
  UserAddOutlined,
};

/** "Form submitted → Add tag → Condition → Send email → Create record". */
export function templatePreview(template: AutomationTemplate): string {
  const steps = walkSteps(template.definition.steps).map((s) =>
    s.kind === "action" && s.type ? ACTION_LABELS[s.type] : STEP_KIND_LABELS[s.kind],
  );
  return [TRIGGER_LABELS[template.definition.trigger.kind], ...steps].join(" → ");
}

interface Props {
  open: boolean;
  onClose: () => void;
}

export default function TemplateGallery({ open, onClose }: Props) {
  const [chosen, setChosen] = useState<AutomationTemplate | null>(null);
  const close = () => {
    setChosen(null);
    onClose();
  };
  return (
    <Modal
      open={open}
      onCancel={close}
      footer={null}
      width={920}
      title={chosen ? `Start from “${chosen.name}”` : "Start from a template"}
      destroyOnHidden
    >
      {chosen ? (
        <NameStep template={chosen} onBack={() => setChosen(null)} onDone={close} />
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            Each template makes a draft you can change. Nothing runs until you publish it.
          </Typography.Paragraph>
          <ul className="af-templates" aria-label="Templates">
            {AUTOMATION_TEMPLATES.map((t) => {
              const Icon = ICONS[t.icon] ?? ThunderboltOutlined;
              return (
                <li key={t.id}>
                  <button type="button" className="af-template" onClick={() => setChosen(t)}>
                    <span className="af-template-head">
                      <span className="af-template-icon" aria-hidden>
                        <Icon />
                      </span>
                      <span className="af-template-name">{t.name}</span>
                    </span>
                    <span className="af-template-description">{t.description}</span>
                    <span className="af-template-preview">{templatePreview(t)}</span>
                    <span className="af-template-foot">
                      <Tag>{t.category}</Tag>
                      {t.choices.length > 0 && (
                        <span className="af-template-choices">
                          You choose: {t.choices.map((c) => c.label.replace(/^\w+ /, "")).join("; ")}
                        </span>
                      )}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </Modal>
  );
}

function NameStep({
  template,
  onBack,
  onDone,
}: {
  template: AutomationTemplate;
  onBack: () => void;
  onDone: () => void;
}) {
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const invalidate = useInvalidate();

  const create = async ({ name }: { name: string }) => {
    setSaving(true);
    setError(null);
    try {
      const made = (
        await client.post<{ id: string }>("/api/automations/from-template", {
          templateId: template.id,
          name: name.trim(),
        })
      ).data;
      invalidate({ resource: "automations", invalidates: ["list"] });
      onDone();
      navigate(`${recordPath(automations, "show", made.id)}?tab=builder&template=${template.id}`);
    } catch (e) {
      const fields = getFieldErrors(e);
      const name = fields.find((f) => f.field === "name");
      if (name) form.setFields([{ name: "name", errors: [name.message] }]);
      else setError(getErrorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form form={form} layout="vertical" initialValues={{ name: template.name }} onFinish={create}>
      <Typography.Paragraph>{template.description}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{templatePreview(template)}</Typography.Paragraph>
      {template.choices.length > 0 && (
        <Alert
          type="info"
          showIcon
          className="af-template-todo"
          message="Before you publish it"
          description={
            <ul>
              {template.choices.map((c) => (
                <li key={c.field}>{c.label}</li>
              ))}
            </ul>
          }
        />
      )}
      {error && <Alert type="error" showIcon message={error} className="af-template-todo" />}
      <Form.Item
        name="name"
        label="Name of the new automation"
        rules={[
          { required: true, whitespace: true, message: "Enter a name" },
          { max: 120, message: "At most 120 characters" },
        ]}
      >
        <Input autoFocus maxLength={120} />
      </Form.Item>
      <Space>
        <Button onClick={onBack}>Back to the templates</Button>
        <Button type="primary" htmlType="submit" loading={saving}>
          Create draft
        </Button>
      </Space>
    </Form>
  );
}
