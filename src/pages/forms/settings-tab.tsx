/**
 * The Settings tab: mail on the left; UTM tracking, CRM clients, sending and first-touch on the
 * right. Each
 * message (the checks as one types, or a refused save's) shows at its input.
 */
import { useList } from "@refinedev/core";
import { Col, Row } from "antd";
import { useMemo } from "react";
import { resumeDaysOf } from "../../../schemas/form-definition";
import { CrmSettingsCard } from "./crm-settings";
import { MailSettingsCard } from "./mail-settings";
import { problemsAt } from "./settings-rules";
import { SubmitSettingsCard } from "./submit-settings";
import type { FormDraft } from "./use-form-draft";
import { UtmSettingsCard } from "./utm-settings";

export function SettingsTab({ draft }: { draft: FormDraft }) {
  const { settings, setSettings, errors, problems, state } = draft;
  const messages = useMemo(
    () => ({ ...errors.settings, ...problems.settings }),
    [errors.settings, problems.settings],
  );
  const under = (prefix: string) => (path: string) => problemsAt(messages, `${prefix}${path}`);
  // The CRM's sequences to enrol respondents in; none offered to someone without the CRM module.
  const { result: sequenceList, query: sequenceQuery } = useList({
    resource: "sequences",
    sorters: [{ field: "name", order: "asc" }],
    pagination: { pageSize: 200 },
    errorNotification: false,
    queryOptions: { retry: false },
  });
  const sequences = useMemo(() => {
    if (!sequenceQuery.isSuccess) return undefined;
    const options = (sequenceList?.data ?? []).map((s) => ({
      value: String(s.id),
      label: s.status === "paused" ? `${s.name} (paused)` : String(s.name),
    }));
    const chosen = settings.crm?.sequenceId;
    if (chosen && !options.some((o) => o.value === chosen))
      options.push({ value: chosen, label: "A deleted sequence (no one is enrolled)" });
    return options;
  }, [sequenceQuery.isSuccess, sequenceList, settings.crm?.sequenceId]);
  return (
    <Row gutter={[16, 16]} className="fs-settings">
      <Col xs={24} xl={12}>
        <MailSettingsCard
          mail={settings.mail}
          fields={state.items}
          messagesAt={under("mail.")}
          onChange={(mail, path) => setSettings({ ...settings, mail }, `mail.${path}`.replace(/\.$/, ""))}
        />
      </Col>
      <Col xs={24} xl={12}>
        <Row gutter={[16, 16]}>
          <Col span={24}>
            <UtmSettingsCard
              utm={settings.utm}
              messagesAt={under("utm.")}
              onChange={(utm, path) => setSettings({ ...settings, utm }, `utm.${path}`.replace(/\.$/, ""))}
            />
          </Col>
          <Col span={24}>
            <CrmSettingsCard
              crm={settings.crm}
              fields={state.items}
              messagesAt={under("crm.")}
              onChange={(crm, path) => setSettings({ ...settings, crm }, `crm.${path}`)}
              sequences={sequences}
            />
          </Col>
          <Col span={24}>
            <SubmitSettingsCard
              submit={settings.submit}
              firstTouch={settings.firstTouch}
              messagesAt={under("")}
              onSubmitChange={(submit, path) => setSettings({ ...settings, submit }, `submit.${path}`)}
              onFirstTouchChange={(firstTouch) => setSettings({ ...settings, firstTouch }, "firstTouch")}
              resumeDays={resumeDaysOf(settings)}
              onResumeDaysChange={(days) => setSettings({ ...settings, resume: { days } }, "resume.days")}
            />
          </Col>
        </Row>
      </Col>
    </Row>
  );
}
