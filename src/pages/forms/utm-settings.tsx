/**
 * The UTM settings of a form (spec §3): the tracking id, the Step, the five default parameters
 * (ids 1 to 5, type 0, read-only, in the spec's order), custom parameters (ids from 6 on,
 * type 1) with a default value each, and Reset tracking (spec §4: Step 1, the five defaults,
 * no custom ones; the tracking id stays).
 */
import { DeleteOutlined, PlusOutlined, UndoOutlined } from "@ant-design/icons";
import { Button, Card, Col, Form, Input, InputNumber, Popconfirm, Row, Table, Typography } from "antd";
import { resetTracking, type TrackingParameter, type UtmSettings } from "../../../schemas/forms";
import { PanelItem } from "./panel-item";
import { nextParameterId } from "./settings-rules";

const MAX_CUSTOM = 20;

/** What each default parameter records, in the words campaign tools use for them. */
const UTM_MEANINGS: Readonly<Record<string, string>> = {
  utm_source: "Where the visitor came from: a site, a newsletter",
  utm_medium: "How: email, a paid ad, social",
  utm_campaign: "The campaign or promotion",
  utm_term: "The paid search words",
  utm_content: "Which ad or link of several",
};

interface UtmSettingsCardProps {
  utm: UtmSettings;
  /** The messages at a path under `settings.utm.`, and under it. */
  messagesAt: (path: string) => string[];
  onChange: (utm: UtmSettings, path: string) => void;
}

export function UtmSettingsCard({ utm, messagesAt, onChange }: UtmSettingsCardProps) {
  const setCustom = (i: number, patch: Partial<TrackingParameter>) =>
    onChange(
      { ...utm, customParameters: utm.customParameters.map((p, j) => (j === i ? { ...p, ...patch } : p)) },
      `customParameters.${i}`,
    );
  const defaultsMessage = messagesAt("defaultParameters");
  return (
    <Card
      size="small"
      title="UTM tracking"
      extra={
        <Popconfirm
          title="Reset tracking?"
          description="Step goes back to 1 and the custom parameters are removed. The tracking id stays."
          okText="Reset"
          okButtonProps={{ danger: true }}
          onConfirm={() => onChange(resetTracking(utm), "")}
        >
          <Button size="small" icon={<UndoOutlined aria-hidden />}>
            Reset tracking
          </Button>
        </Popconfirm>
      }
    >
      <Form layout="vertical" component="div">
        <Row gutter={12}>
          <Col span={16}>
            <PanelItem id="fs-utm-id" label="Tracking id" message={messagesAt("trackingId")}>
              <Input
                id="fs-utm-id"
                value={utm.trackingId}
                maxLength={100}
                placeholder="e.g. GTM-XXXX or a campaign code"
                onChange={(e) => onChange({ ...utm, trackingId: e.target.value }, "trackingId")}
              />
            </PanelItem>
          </Col>
          <Col span={8}>
            <PanelItem id="fs-utm-step" label="Step" message={messagesAt("Step")}>
              <InputNumber
                id="fs-utm-step"
                value={utm.Step}
                min={1}
                max={1000}
                precision={0}
                style={{ width: "100%" }}
                onChange={(step) => onChange({ ...utm, Step: step ?? 1 }, "Step")}
              />
            </PanelItem>
          </Col>
        </Row>
        <Typography.Text strong>Default parameters</Typography.Text>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          Always recorded from the page's address.
        </Typography.Paragraph>
        {defaultsMessage.length > 0 && (
          <Typography.Paragraph type="danger">{defaultsMessage.join(" ")}</Typography.Paragraph>
        )}
        <Table<TrackingParameter>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={utm.defaultParameters}
          columns={[
            { title: "Id", dataIndex: "id", width: 56 },
            {
              title: "Name",
              dataIndex: "name",
              // A parameter's name is one word: never broken mid-name ("utm_campaig n").
              width: 140,
              render: (name: string) => (
                <Typography.Text code style={{ whiteSpace: "nowrap" }}>
                  {name}
                </Typography.Text>
              ),
            },
            // Their type (0, the spec's for the defaults) says nothing to a person: what each records does.
            {
              title: "Records",
              key: "records",
              render: (_: unknown, p: TrackingParameter) => UTM_MEANINGS[p.name] ?? "",
            },
          ]}
          style={{ marginBottom: 16 }}
          aria-label="Default parameters"
        />
        <Typography.Text strong>Custom parameters</Typography.Text>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          Other address parameters to record (gclid, fbclid, a partner code), with the value kept when the
          address has none.
        </Typography.Paragraph>
        {utm.customParameters.map((p, i) => {
          const message = messagesAt(`customParameters.${i}`);
          return (
            <Row key={p.id} gutter={8} align="top" className="fs-param">
              <Col flex="48px">
                <Typography.Text type="secondary" className="fs-param-id" aria-label={`Id ${p.id}`}>
                  #{p.id}
                </Typography.Text>
              </Col>
              <Col flex="1">
                <Input
                  aria-label={`Parameter ${p.id} name`}
                  value={p.name}
                  maxLength={63}
                  placeholder="Name"
                  // A row just added: its name is what to type next.
                  autoFocus={!p.name}
                  status={message.length ? "error" : undefined}
                  className="fb-mono"
                  onChange={(e) => setCustom(i, { name: e.target.value.trim() })}
                />
                {message.length > 0 && <Typography.Text type="danger">{message.join(" ")}</Typography.Text>}
              </Col>
              <Col flex="1">
                <Input
                  aria-label={`Parameter ${p.id} default value`}
                  value={p.defaultValue ?? ""}
                  maxLength={200}
                  placeholder="Default value"
                  onChange={(e) => setCustom(i, { defaultValue: e.target.value })}
                />
              </Col>
              <Col flex="32px">
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined aria-hidden />}
                  aria-label={`Remove parameter ${p.name || p.id}`}
                  onClick={() =>
                    onChange(
                      { ...utm, customParameters: utm.customParameters.filter((_, j) => j !== i) },
                      "customParameters",
                    )
                  }
                />
              </Col>
            </Row>
          );
        })}
        <Button
          type="dashed"
          icon={<PlusOutlined aria-hidden />}
          disabled={utm.customParameters.length >= MAX_CUSTOM}
          onClick={() =>
            onChange(
              {
                ...utm,
                customParameters: [
                  ...utm.customParameters,
                  { id: nextParameterId(utm), name: "", type: 1, defaultValue: "" },
                ],
              },
              "customParameters",
            )
          }
        >
          Add parameter
        </Button>
      </Form>
    </Card>
  );
}
