import { Flex, Spin } from "antd";

/**
 * Fallback while a lazy chunk or a permission check loads. Named "Loading" as a status: antd's
 * Spin is a plain <div>, where a name is not allowed (axe-core: aria-prohibited-attr).
 */
export function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <Flex
      role="status"
      aria-label="Loading"
      align="center"
      justify="center"
      style={{ minHeight: fullScreen ? "100vh" : 320 }}
    >
      <Spin size="large" />
    </Flex>
  );
}
