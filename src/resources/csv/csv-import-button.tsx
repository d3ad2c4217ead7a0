import { UploadOutlined } from "@ant-design/icons";
import { useApiUrl, useInvalidate } from "@refinedev/core";
import { Alert, App, Button, Flex, List, Modal, Typography, Upload } from "antd";
import { useState } from "react";
import { http } from "../../../providers/http";
import { type FieldError, getErrorMessage, getFieldErrors } from "../../lib/errors";
import type { ToolbarActionProps } from "../types";

interface ImportReport {
  message: string;
  details: FieldError[];
}

/**
 * Import CSV: sends the chosen file to `POST /<name>/import` as `text/csv`. The server
 * checks every row first; on success "Imported N <label>" and the list refreshes, on a 400
 * nothing was written and the row/field errors are listed in a dialog.
 */
export function CsvImportButton({ def }: ToolbarActionProps) {
  const apiUrl = useApiUrl(def.base);
  const invalidate = useInvalidate();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<ImportReport>();

  const upload = async (file: File) => {
    setBusy(true);
    try {
      const { data } = await http.post<{ imported: number }>(
        `${apiUrl}/${def.name}/import`,
        await file.text(),
        {
          headers: { "Content-Type": "text/csv" },
        },
      );
      const n = data.imported;
      message.success(`Imported ${n} ${(n === 1 ? def.singular : def.label).toLowerCase()}`);
      await invalidate({ resource: def.name, invalidates: ["list", "many"] });
    } catch (error) {
      const details = getFieldErrors(error);
      if (details.length) setReport({ message: getErrorMessage(error), details });
      else message.error(getErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Upload
        accept=".csv,text/csv"
        showUploadList={false}
        beforeUpload={(file) => {
          void upload(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy}>
          Import CSV
        </Button>
      </Upload>
      <Modal
        open={report !== undefined}
        title={`Import ${def.label.toLowerCase()}`}
        onCancel={() => setReport(undefined)}
        footer={<Button onClick={() => setReport(undefined)}>Close</Button>}
        width={640}
      >
        <Alert
          type="error"
          showIcon
          message={report?.message}
          description="Correct these rows in the file and import it again."
          style={{ marginBottom: 16 }}
        />
        <List
          size="small"
          bordered
          aria-label="Import errors"
          style={{ maxHeight: 360, overflow: "auto" }}
          dataSource={report?.details ?? []}
          renderItem={(detail) => (
            <List.Item>
              <Flex gap={16} style={{ width: "100%" }}>
                <Typography.Text strong style={{ flex: "0 0 180px" }}>
                  {detail.field}
                </Typography.Text>
                <Typography.Text>{detail.message}</Typography.Text>
              </Flex>
            </List.Item>
          )}
        />
      </Modal>
    </>
  );
}
