import { CloseCircleFilled } from "@ant-design/icons";
import { Button, Flex, Typography } from "antd";
import { Component, type ErrorInfo, type ReactNode } from "react";

interface State {
  error: Error | null;
}

/**
 * Last line of defence for a screen that throws while rendering (or a lazy chunk that cannot
 * be loaded): an explanation and a reload button instead of a blank page.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("Screen failed to render", error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    // Plain parts rather than antd's Result: this sits in the entry chunk, which stays small.
    return (
      <Flex
        vertical
        align="center"
        justify="center"
        gap={8}
        role="alert"
        style={{ minHeight: "60vh", padding: 24 }}
      >
        <CloseCircleFilled aria-hidden style={{ fontSize: 56, color: "#ff4d4f", marginBottom: 16 }} />
        <Typography.Title level={3} style={{ margin: 0 }}>
          Something Went Wrong
        </Typography.Title>
        <Typography.Text type="secondary">
          This screen could not be displayed. Reloading the page usually fixes it.
        </Typography.Text>
        <Button type="primary" onClick={() => window.location.reload()} style={{ marginTop: 16 }}>
          Reload
        </Button>
      </Flex>
    );
  }
}
