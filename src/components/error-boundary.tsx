import { CloseCircleFilled, ReloadOutlined } from "@ant-design/icons";
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

/** Title and explanation for what went wrong: a screen whose code did not arrive, or a bug. */
function describe(error: Error): { title: string; text: string } {
  if (error instanceof ScriptLoadTimeoutError) {
    return {
      title: "This screen took too long to load",
      text: `Its code did not arrive within ${duration(error.timeoutMs)}. The connection may be slow or the server busy.`,
    };
  }
  if (isScriptLoadError(error)) {
    return {
      title: "This screen could not be loaded",
      text: "Its code could not be downloaded. Check the connection, then try again.",
    };
  }
  return {
    title: "Something Went Wrong",
    text: "This screen could not be displayed. Reloading the page usually fixes it.",
  };
}

/**
 * Last line of defence for a screen that throws while rendering, or whose code cannot be
 * loaded: an explanation and a way out instead of a blank page. Code that timed out is tried
 * again in place (the download may have finished meanwhile); a failed download or a bug
 * needs a reload, since the browser keeps a failed import failed.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidMount(): void {
    window.addEventListener("online", this.retryWhenBack);
  }

  override componentWillUnmount(): void {
    window.removeEventListener("online", this.retryWhenBack);
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("Screen failed to render", error, info.componentStack);
  }

  /** Back online: a screen whose code could not arrive is tried again by itself. */
  private readonly retryWhenBack = () => {
    if (this.state.error && isScriptLoadError(this.state.error)) this.retry();
  };

  private readonly retry = () => {
    if (!(this.state.error instanceof ScriptLoadTimeoutError)) {
      window.location.reload();
      return;
    }
    retryFailedScreens();
    this.setState({ error: null });
  };

  override render() {
    if (!this.state.error) return this.props.children;
    const { title, text } = describe(this.state.error);
    const retryable = isScriptLoadError(this.state.error);
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
        <CloseCircleFilled aria-hidden style={{ fontSize: 56, color: "#ff4d4f", marginBottom: 16 }} />
        <Typography.Title level={3} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <Typography.Text type="secondary">{text}</Typography.Text>
        <Button type="primary" icon={<ReloadOutlined />} onClick={this.retry} style={{ marginTop: 16 }}>
          {retryable ? "Retry" : "Reload"}
        </Button>
      </Flex>
    );
  }
}
