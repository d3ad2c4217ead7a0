/**
 * Recovery codes, shown once: each signs in once in place of an app code (a lost phone).
 * Copy and download are offered, since the server keeps only their hashes.
 */
import { CopyOutlined, DownloadOutlined } from "@ant-design/icons";
import { Alert, Button, Flex, Typography } from "antd";
import { useState } from "react";

export function RecoveryCodesList({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  const text = codes.join("\n");

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false); // no clipboard (an insecure origin): the codes stay on screen to write down
    }
  };
  const download = () => {
    const url = URL.createObjectURL(
      new Blob([`Atelier recovery codes\n\n${text}\n`], { type: "text/plain" }),
    );
    const a = Object.assign(document.createElement("a"), {
      href: url,
      download: "atelier-recovery-codes.txt",
    });
    a.click();
    URL.revokeObjectURL(url);
  };

  return (
    <Flex vertical gap={12}>
      <Alert
        type="warning"
        showIcon
        message="Save these recovery codes now: they are not shown again."
        description="Each one signs you in once if you lose your phone. Keep them somewhere safe, away from your password."
      />
      <ol
        data-testid="recovery-codes"
        style={{
          display: "grid",
          gridTemplateColumns: "repeat(2, minmax(0, 1fr))",
          gap: "6px 24px",
          margin: 0,
          padding: "12px 16px 12px 40px",
          background: "#fafafa",
          border: "1px solid #f0f0f0",
          borderRadius: 8,
        }}
      >
        {codes.map((code) => (
          <li key={code}>
            <Typography.Text code style={{ fontSize: 15 }}>
              {code}
            </Typography.Text>
          </li>
        ))}
      </ol>
      <Flex gap={8}>
        <Button icon={<CopyOutlined />} onClick={() => void copy()}>
          {copied ? "Copied" : "Copy codes"}
        </Button>
        <Button icon={<DownloadOutlined />} onClick={download}>
          Download
        </Button>
      </Flex>
    </Flex>
  );
}
