import { InboxOutlined } from "@ant-design/icons";
import { useApiUrl, useInvalidate } from "@refinedev/core";
import { Alert, App, Button, Flex, Modal, Progress, Spin, Typography, Upload } from "antd";
import { useEffect, useRef, useState } from "react";
import { http } from "../../../providers/http";
import { getErrorMessage } from "../../lib/errors";
import type { ScreenProps } from "../types";
import { CsvProblemsTable } from "./csv-problems-table";
import { type ImportProblem, type ImportReport, plannedChanges, problemsOf, reportOf } from "./import-report";

type Step =
  | { kind: "choose" }
  | { kind: "busy"; action: "check" | "import"; file: File; sent: number }
  | { kind: "ready"; file: File; report: ImportReport }
  | { kind: "problems"; file?: File; message: string; problems: ImportProblem[] };

interface Props extends ScreenProps {
  open: boolean;
  onClose: () => void;
}

/** The body of a failed call, if the server answered. */
const answerOf = (error: unknown) => (error as { response?: { data?: unknown } } | null)?.response?.data;

/** Focuses the drop zone (antd's Upload renders it as a `role="button"` box) inside `box`. */
const focusDropZone = (box: HTMLElement | null) =>
  box?.querySelector<HTMLElement>('[role="button"]')?.focus();

/** Under the problems: which file, that nothing was written, and what to do next. */
function problemsHint(file: File | undefined, listed: boolean): string {
  const nothing = file ? `Nothing was imported from ${file.name}.` : "Nothing was imported.";
  return listed ? `${nothing} Correct these rows in the file and choose it again.` : nothing;
}

/**
 * Import CSV, in two steps: the chosen file is sent as a dry run first (nothing written), which
 * answers "N to create, M to update" or the rows at fault (Row, Column, Message); "Import" then
 * sends it again for real, all rows or none. The file goes as it is (`text/csv`, UTF-8); the
 * server reads and checks it.
 */
export function CsvImportDialog({ def, open, onClose }: Props) {
  const apiUrl = useApiUrl(def.base);
  const invalidate = useInvalidate();
  const { message } = App.useApp();
  const [step, setStep] = useState<Step>({ kind: "choose" });
  const singular = def.singular.toLowerCase();
  const plural = def.label.toLowerCase();
  const busy = step.kind === "busy";
  const chooser = useRef<HTMLDivElement>(null);

  // The drop zone is the one thing to do on the first step, so it has the focus: once the dialog
  // has opened (the dialog takes the focus for itself until then), and when "Choose another file"
  // brings the step back (that button is gone by then, and a focus left on the page would also
  // leave Escape and Tab outside the dialog).
  const stepKind = step.kind;
  useEffect(() => {
    if (stepKind === "choose") focusDropZone(chooser.current);
  }, [stepKind]);

  const close = () => {
    setStep({ kind: "choose" });
    onClose();
  };
  const again = () => setStep({ kind: "choose" });

  const send = (file: File, dryRun: boolean) =>
    http.post<unknown>(`${apiUrl}/${def.name}/import`, file, {
      params: dryRun ? { dryRun: true } : undefined,
      headers: { "Content-Type": "text/csv" },
      onUploadProgress: (event) => {
        const sent = event.total ? Math.round((event.loaded / event.total) * 100) : 0;
        setStep((s) => (s.kind === "busy" ? { ...s, sent } : s));
      },
    });

  const refused = (error: unknown, file?: File) =>
    setStep({
      kind: "problems",
      file,
      message: getErrorMessage(error),
      problems: problemsOf(answerOf(error)),
    });

  const check = async (file: File) => {
    setStep({ kind: "busy", action: "check", file, sent: 0 });
    try {
      const report = reportOf((await send(file, true)).data);
      if (!report) throw new Error("The server's answer to the check could not be read");
      setStep(
        report.errors.length
          ? { kind: "problems", file, message: report.message, problems: report.errors }
          : { kind: "ready", file, report },
      );
    } catch (error) {
      refused(error, file);
    }
  };

  const importFile = async (file: File) => {
    setStep({ kind: "busy", action: "import", file, sent: 0 });
    try {
      const report = reportOf((await send(file, false)).data);
      message.success(report?.message || `${def.label} imported`);
      await invalidate({ resource: def.name, invalidates: ["list", "many"] });
      close();
    } catch (error) {
      refused(error, file);
    }
  };

  const footer =
    step.kind === "ready"
      ? [
          <Button key="again" onClick={again}>
            Choose another file
          </Button>,
          <Button key="cancel" onClick={close}>
            Cancel
          </Button>,
          <Button key="import" type="primary" autoFocus onClick={() => void importFile(step.file)}>
            Import
          </Button>,
        ]
      : step.kind === "problems"
        ? [
            <Button key="close" onClick={close}>
              Close
            </Button>,
            // Last, like Import: the dialog's next step sits on the right, and has the focus.
            <Button key="again" type="primary" autoFocus onClick={again}>
              Choose another file
            </Button>,
          ]
        : [
            <Button key="cancel" onClick={close} disabled={busy}>
              Cancel
            </Button>,
          ];

  return (
    <Modal
      open={open}
      title={`Import ${plural} from CSV`}
      onCancel={busy ? undefined : close}
      closable={!busy}
      maskClosable={false}
      keyboard={!busy}
      footer={footer}
      width={720}
      destroyOnHidden
      afterOpenChange={(opened) => opened && focusDropZone(chooser.current)}
    >
      {step.kind === "choose" && (
        <Flex vertical gap={12} ref={chooser}>
          <Typography.Paragraph style={{ margin: 0 }}>
            The first row names the columns, as in an export (Export CSV gives a file to start from). A row
            that matches an existing {singular} updates it; the others become new {plural}. The file is
            checked first: nothing is written until you confirm.
          </Typography.Paragraph>
          <Upload.Dragger
            accept=".csv,text/csv"
            multiple={false}
            showUploadList={false}
            beforeUpload={(file) => {
              void check(file);
              return Upload.LIST_IGNORE;
            }}
          >
            <p className="ant-upload-drag-icon">
              {/* Hidden, or "inbox" would open the drop zone's name for a screen reader. */}
              <InboxOutlined aria-hidden />
            </p>
            <p className="ant-upload-text">Choose a CSV file, or drop it here</p>
            <p className="ant-upload-hint">UTF-8 text ("CSV UTF-8" in a spreadsheet), up to 50,000 rows</p>
          </Upload.Dragger>
        </Flex>
      )}

      {step.kind === "busy" && (
        <Flex vertical gap={12} align="stretch" aria-live="polite" aria-busy="true">
          <Typography.Text>
            {step.action === "check" ? `Checking ${step.file.name}…` : `Importing ${step.file.name}…`}
          </Typography.Text>
          {step.sent < 100 ? (
            <Progress percent={step.sent} aria-label="Sending the file" />
          ) : (
            <Spin tip={step.action === "check" ? "Checking every row" : "Writing every row"}>
              <div style={{ height: 48 }} />
            </Spin>
          )}
        </Flex>
      )}

      {step.kind === "ready" && (
        <Alert
          type="success"
          showIcon
          role="status"
          message={plannedChanges(step.report, singular, plural)}
          description={`${step.file.name} is ready. Nothing is written until you press Import; then every row is written, or none.`}
        />
      )}

      {step.kind === "problems" && (
        <Flex vertical gap={12}>
          <Alert
            type="error"
            showIcon
            role="alert"
            message={step.message}
            description={problemsHint(step.file, step.problems.length > 0)}
          />
          {step.problems.length > 0 && <CsvProblemsTable problems={step.problems} />}
        </Flex>
      )}
    </Modal>
  );
}
