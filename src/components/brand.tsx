import { Typography } from "antd";
import { APP_NAME, LOGO_URL } from "../theme";

interface BrandProps {
  /** Logo edge in pixels. */
  size?: number;
  /** Hide the word mark (collapsed sider). */
  compact?: boolean;
}

/** The logo with the product's name beside it. */
export function Brand({ size = 32, compact = false }: BrandProps) {
  return (
    <span style={{ display: "inline-flex", alignItems: "center", gap: 10 }}>
      <img src={LOGO_URL} alt={compact ? APP_NAME : ""} width={size} height={size} />
      {!compact && (
        <Typography.Text strong style={{ fontSize: size * 0.56, letterSpacing: 0.2 }}>
          {APP_NAME}
        </Typography.Text>
      )}
    </span>
  );
}
