import {
  ApiOutlined,
  ClockCircleOutlined,
  CloudServerOutlined,
  DisconnectOutlined,
  ReloadOutlined,
} from "@ant-design/icons";
import { Alert, Button } from "antd";
import { type ReactNode, useState } from "react";
import {
  failureStatus,
  type LoadFailureKind,
  loadFailureKind,
  loadFailureReason,
  loadFailureTitle,
} from "../lib/load-failure";
import { StatusBlock } from "./status-block";
import { useOnlineStatus } from "./use-online-status";

export interface LoadErrorProps {
  /** What failed, as it reads after "The": "products", "product", "security log". */
  what: string;
  /** The failure (a Refine HttpError, an axios error, anything); null while a query waits offline. */
  error: unknown;
  /** Loads again; a returned promise keeps the button spinning until it settles. */
  onRetry: () => unknown;
  /** A one-line alert for a card or a panel instead of the full-page result. */
  compact?: boolean;
  /** Shown beside Retry (e.g. a way back to the list). */
  extra?: ReactNode;
}

const ICON_STYLE = { fontSize: 64 };
const ICONS: Record<LoadFailureKind, ReactNode> = {
  offline: <DisconnectOutlined style={{ ...ICON_STYLE, color: "#faad14" }} />,
  timeout: <ClockCircleOutlined style={{ ...ICON_STYLE, color: "#faad14" }} />,
  "no-answer": <ApiOutlined style={{ ...ICON_STYLE, color: "#faad14" }} />,
  server: <CloudServerOutlined style={{ ...ICON_STYLE, color: "#ff4d4f" }} />,
  "not-found": <CloudServerOutlined style={{ ...ICON_STYLE, color: "#faad14" }} />,
  forbidden: <CloudServerOutlined style={{ ...ICON_STYLE, color: "#faad14" }} />,
  refused: <CloudServerOutlined style={{ ...ICON_STYLE, color: "#faad14" }} />,
};

/**
 * A load that failed, shown in place of the data: what failed, why in plain words (offline,
 * server error, timed out, no answer) and a Retry button. Offline, it also retries by itself
 * when the connection comes back (the 'You are online' toast), so nobody has to click.
 *
 * @example
 * // loadFailed (src/lib/load-failure.ts): an error, or a query paused offline with no data.
 * if (loadFailed(query)) return <LoadError what="products" error={query.error} onRetry={() => query.refetch()} />;
 */
export function LoadError({ what, error, onRetry, compact = false, extra }: LoadErrorProps) {
  const [retrying, setRetrying] = useState(false);

  const retry = async () => {
    setRetrying(true);
    try {
      await onRetry();
    } finally {
      setRetrying(false);
    }
  };
  const online = useOnlineStatus(() => void retry());

  const kind = loadFailureKind(error, online);
  const title = loadFailureTitle(what);
  const serverMessage = (error as { message?: unknown } | null)?.message;
  const reason = loadFailureReason(
    kind,
    failureStatus(error),
    kind === "refused" && typeof serverMessage === "string" ? serverMessage : undefined,
  );
  const retryButton = (
    <Button
      type={compact ? "default" : "primary"}
      size={compact ? "small" : "middle"}
      icon={<ReloadOutlined />}
      loading={retrying}
      onClick={() => void retry()}
    >
      Retry
    </Button>
  );

  if (compact) {
    return (
      <Alert
        role="alert"
        data-load-failure={kind}
        type={kind === "server" ? "error" : "warning"}
        showIcon
        message={title}
        description={reason}
        action={retryButton}
      />
    );
  }
  return (
    <div role="alert" data-load-failure={kind}>
      <StatusBlock
        icon={ICONS[kind]}
        title={title}
        subTitle={reason}
        extra={
          <>
            {retryButton}
            {extra}
          </>
        }
      />
    </div>
  );
}
