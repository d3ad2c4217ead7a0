import { Flex, Spin } from "antd";

/** Fallback while a lazy chunk or a permission check loads. */
export function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <Flex align="center" justify="center" style={{ minHeight: fullScreen ? "100vh" : 320 }}>
      <Spin size="large" aria-label="Loading" />
    </Flex>
  );
}
