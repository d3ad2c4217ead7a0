/**
 * A centred icon, title, explanation and actions: antd's Result without its built-in
 * illustrations. Result carries its 403, 404 and 500 drawings wherever it is imported, and the
 * screens behind sign-in need it on every page (load errors, the 403 of a module): about 8 KB
 * of compressed script for pictures those places never show.
 */
import { Flex, Typography } from "antd";
import type { ReactNode } from "react";

export interface StatusBlockProps {
  icon: ReactNode;
  title: ReactNode;
  subTitle?: ReactNode;
  /** The actions, under the words. */
  extra?: ReactNode;
}

export function StatusBlock({ icon, title, subTitle, extra }: StatusBlockProps) {
  return (
    <Flex vertical align="center" gap={8} style={{ padding: "48px 32px", textAlign: "center" }}>
      <div aria-hidden style={{ fontSize: 72, lineHeight: 1, marginBottom: 16 }}>
        {icon}
      </div>
      <Typography.Title level={3} style={{ margin: 0, fontWeight: 400 }}>
        {title}
      </Typography.Title>
      {subTitle && <Typography.Text type="secondary">{subTitle}</Typography.Text>}
      {extra && (
        <Flex gap={8} wrap justify="center" style={{ marginTop: 16 }}>
          {extra}
        </Flex>
      )}
    </Flex>
  );
}
