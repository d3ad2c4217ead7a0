import {
  ClockCircleOutlined,
  CloseCircleFilled,
  DisconnectOutlined,
  ReloadOutlined,
} from "@ant-design/icons";
import { Button, Flex, Typography } from "antd";
import { Component, type ErrorInfo, type ReactNode } from "react";
import { isScriptLoadError, ScriptLoadTimeoutError } from "../lib/chunk-reload";
import { retryFailedScreens } from "./lazy-screen";

interface State {
  error: Error | null;
}

/** "2 minutes", "1 minute", "5 seconds". */
function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.round(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** The icon, title and explanation for what went wrong: a screen whose code did not arrive, or a bug. */
function describe(error: Error): { icon: ReactNode; title: string; text: string } {
  // The sizes and colours of LoadError's icons, so every "could not load" looks alike.
  const icon = { fontSize: 64, color: "#faad14" };
  if (error instanceof ScriptLoadTimeoutError) {
    return {
      icon: <ClockCircleOutlined aria-hidden style={icon} />,
      title: "This screen took too long to load",
      text: `Its code did not arrive within ${duration(error.timeoutMs)}. The connection may be slow or the server busy.`,
    };
  }
  if (isScriptLoadError(error)) {
    return {
      icon: <DisconnectOutlined aria-hidden style={icon} />,
      title: "This screen could not be loaded",
      text: "Its code could not be downloaded. Check the connection, then try again.",
    };
  }
  return {
    icon: <CloseCircleFilled aria-hidden style={{ ...icon, color: "#ff4d4f" }} />,
    title: "Something Went Wrong",
    text: "This screen could not be displayed. Reloading the page usually fixes it.",
  };
}

/**
 * Last line of defence for a screen that throws while rendering, or whose code cannot be
 * loaded: an explanation and a way out instead of a blank page. Code that did not arrive (too
 * slow, or the download failed) is tried again in place: the browser fetches a failed import
 * afresh, and a slow one may have finished meanwhile. A bug needs a reload.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidMount(): void {
    window.addEventListener("online", this.retryWhenBack);
    window.addEventListener("offline", this.showOffline);
  }

  override componentWillUnmount(): void {
    window.removeEventListener("online", this.retryWhenBack);
    window.removeEventListener("offline", this.showOffline);
  }

  /** Re-renders an error shown, so it says the connection is gone. */
  private readonly showOffline = () => {
    if (this.state.error) this.forceUpdate();
  };

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("Screen failed to render", error, info.componentStack);
  }

  /** Back online: a screen whose code could not arrive is tried again by itself. */
  private readonly retryWhenBack = () => {
    if (this.state.error && isScriptLoadError(this.state.error)) this.retry();
  };

  private readonly retry = () => {
    if (!isScriptLoadError(this.state.error)) {
      window.location.reload();
      return;
    }
    retryFailedScreens();
    this.setState({ error: null });
  };

  override render() {
    if (!this.state.error) return this.props.children;
    const { icon, title, text } = describe(this.state.error);
    const retryable = isScriptLoadError(this.state.error);
    // Offline, a reload would show the browser's own error page: wait for the connection,
    // which retries by itself (retryWhenBack).
    const waiting = retryable && !navigator.onLine;
    // Plain parts rather than antd's Result: this sits in the entry chunk, which stays small.
    return (
      <Flex
        vertical
        align="center"
        justify="center"
        gap={8}
        role="alert"
        style={{ minHeight: "60vh", padding: 24, textAlign: "center" }}
      >
        <div style={{ marginBottom: 16 }}>{icon}</div>
        <Typography.Title level={3} style={{ margin: 0, fontWeight: 400 }}>
          {title}
        </Typography.Title>
        <Typography.Text type="secondary">
          {waiting ? "You are offline. This screen will load by itself when the connection is back." : text}
        </Typography.Text>
        <Button
          type="primary"
          icon={<ReloadOutlined />}
          onClick={this.retry}
          disabled={waiting}
          style={{ marginTop: 16 }}
        >
          {retryable ? "Retry" : "Reload"}
        </Button>
      </Flex>
    );
  }
}
