/**
 * What the respondent sees at the end (the button's label, the message once sent), how long a
 * visitor's unsent answers are kept for them to come back to (the resume window), and whether
 * the embed script remembers where visitors first came from (first-touch attribution).
 */
import { Card, Flex, Form, Input, InputNumber, Select, Typography } from "antd";
import {
  FIRST_TOUCH_MODES,
  type FirstTouchMode,
  MAX_RESUME_DAYS,
  type SubmitSettings,
} from "../../../schemas/form-definition";
import { PanelItem } from "./panel-item";

const FIRST_TOUCH: Record<FirstTouchMode, { label: string; explain: string }> = {
  off: {
    label: "Off",
    explain: "Only the page where the form is sent from is recorded.",
  },
  on: {
    label: "On",
    explain:
      "The first visit's UTM parameters, landing page and referrer are kept in the visitor's browser and sent with the answer.",
  },
  consent: {
    label: "Only after the site's consent",
    explain:
      'As On, but only once the site says the visitor agreed (AtelierForms.grantConsent() or data-consent="granted").',
  },
};

interface SubmitSettingsCardProps {
  submit: SubmitSettings;
  firstTouch: FirstTouchMode;
  messagesAt: (path: string) => string[];
  onSubmitChange: (submit: SubmitSettings, path: string) => void;
  onFirstTouchChange: (mode: FirstTouchMode) => void;
  resumeDays: number;
  onResumeDaysChange: (days: number) => void;
}

export function SubmitSettingsCard(props: SubmitSettingsCardProps) {
  const { submit, firstTouch, messagesAt, onSubmitChange, onFirstTouchChange } = props;
  const { resumeDays, onResumeDaysChange } = props;
  return (
    <Flex vertical gap={16}>
      <Card size="small" title="Sending">
        <Form layout="vertical" component="div">
          <PanelItem
            id="fs-submit-label"
            label="Button label"
            required
            message={messagesAt("submit.buttonLabel")}
          >
            <Input
              id="fs-submit-label"
              value={submit.buttonLabel}
              maxLength={60}
              onChange={(e) => onSubmitChange({ ...submit, buttonLabel: e.target.value }, "buttonLabel")}
            />
          </PanelItem>
          <PanelItem
            id="fs-submit-success"
            label="Success message"
            required
            message={messagesAt("submit.successMessage")}
            className="fs-last"
          >
            <Input.TextArea
              id="fs-submit-success"
              value={submit.successMessage}
              maxLength={1000}
              autoSize={{ minRows: 2, maxRows: 6 }}
              onChange={(e) =>
                onSubmitChange({ ...submit, successMessage: e.target.value }, "successMessage")
              }
            />
          </PanelItem>
        </Form>
      </Card>
      <Card size="small" title="Partial answers">
        <Form layout="vertical" component="div">
          <PanelItem
            id="fs-resume-days"
            label="Keep unsent answers for (days)"
            message={messagesAt("resume.days")}
            className="fs-last"
          >
            <InputNumber
              id="fs-resume-days"
              min={1}
              max={MAX_RESUME_DAYS}
              precision={0}
              value={resumeDays}
              onChange={(days) => typeof days === "number" && onResumeDaysChange(days)}
              style={{ width: 120 }}
            />
          </PanelItem>
          <Typography.Paragraph type="secondary" style={{ margin: "8px 0 0" }}>
            A visitor's answers are kept as they go (at each Next), so coming back within this many days
            continues where they left. Unsent answers are listed under Partial answers and deleted once this
            window has passed since their last change.
          </Typography.Paragraph>
        </Form>
      </Card>
      <Card size="small" title="First-touch attribution">
        <Form layout="vertical" component="div">
          <PanelItem id="fs-first-touch" label="Remember where visitors first came from" className="fs-last">
            <Select
              id="fs-first-touch"
              value={firstTouch}
              onChange={onFirstTouchChange}
              options={FIRST_TOUCH_MODES.map((mode) => ({ value: mode, label: FIRST_TOUCH[mode].label }))}
            />
          </PanelItem>
          <Typography.Paragraph type="secondary" style={{ margin: "8px 0 0" }}>
            {FIRST_TOUCH[firstTouch].explain}
          </Typography.Paragraph>
        </Form>
      </Card>
    </Flex>
  );
}
