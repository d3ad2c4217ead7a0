import { DownloadOutlined } from "@ant-design/icons";
import { useApiUrl } from "@refinedev/core";
import { App, Button } from "antd";
import { useState } from "react";
import { toListParams } from "../../../providers/data-provider";
import { http } from "../../../providers/http";
import type { ToolbarActionProps } from "../types";
import { attachmentName, blobErrorMessage, saveBlob } from "./download";

/**
 * Export CSV: downloads `/<name>/export.csv` with the list's current search, filters and
 * sort, through the app's HTTP client (so the bearer token and its refresh apply), saved
 * under the name the server gives (`Content-Disposition`), else `<name>.csv`.
 */
export function CsvExportButton({ def, filters, sorters }: ToolbarActionProps) {
  const apiUrl = useApiUrl(def.base);
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);

  const download = async () => {
    setBusy(true);
    try {
      const params = toListParams({ mode: "off" }, sorters, filters);
      const response = await http.get<Blob>(`${apiUrl}/${def.name}/export.csv`, {
        params,
        responseType: "blob",
      });
      const fallback = `${def.name.replace(/\//g, "-")}.csv`;
      saveBlob(response.data, attachmentName(response.headers["content-disposition"], fallback));
    } catch (error) {
      message.error(await blobErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={download}>
      Export CSV
    </Button>
  );
}
