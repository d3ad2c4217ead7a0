/**
 * The page header Refine's List, Show, Edit and Create draw, in place of
 * `@ant-design/pro-layout`'s (vite.config.ts points that package here; Refine imports only
 * `PageHeader` from it). Same markup and class names, styled by page-header.css from antd's CSS
 * variables. The pro-layout one styles itself through `@ant-design/pro-provider`, which carries
 * every locale of the pro components: about 15 KB of compressed script on every screen behind
 * sign-in, for a title row with a back button and some buttons.
 */
import "./page-header.css";
import { ArrowLeftOutlined } from "@ant-design/icons";
import { Breadcrumb, type BreadcrumbProps, Button, Space } from "antd";
import {
  type CSSProperties,
  cloneElement,
  isValidElement,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from "react";

/** The props of pro-layout's PageHeader that Refine passes (the rest are not used here). */
export interface PageHeaderProps {
  title?: ReactNode;
  subTitle?: ReactNode;
  tags?: ReactNode;
  extra?: ReactNode;
  /** An element, or the items of an antd Breadcrumb. */
  breadcrumb?: ReactNode | BreadcrumbProps;
  backIcon?: ReactNode;
  onBack?: (event?: MouseEvent<HTMLElement>) => void;
  footer?: ReactNode;
  className?: string;
  style?: CSSProperties;
  children?: ReactNode;
  /** Accepted for compatibility; the header is always transparent. */
  ghost?: boolean;
}

const PREFIX = "ant-page-header";

const isElementLike = (value: unknown): value is ReactNode =>
  typeof value !== "object" || value === null || "props" in value;

function BreadcrumbPart({ breadcrumb }: { breadcrumb: PageHeaderProps["breadcrumb"] }) {
  if (!breadcrumb) return null;
  if (isElementLike(breadcrumb)) return <>{breadcrumb}</>;
  const props = breadcrumb as BreadcrumbProps;
  if (!props.items?.length) return null;
  return (
    <Breadcrumb {...props} className={[`${PREFIX}-breadcrumb`, props.className].filter(Boolean).join(" ")} />
  );
}

/**
 * The way back, named "Back". Refine passes a text Button with an arrow as the icon: it gets the
 * click and the name; anything else is put in a button of its own.
 */
function backButton(icon: ReactNode, onBack: NonNullable<PageHeaderProps["onBack"]>) {
  if (
    isValidElement<{ onClick?: unknown }>(icon) &&
    typeof icon.type !== "string" &&
    icon.type !== ArrowLeftOutlined
  ) {
    return cloneElement(icon as ReactElement<Record<string, unknown>>, {
      "aria-label": "Back",
      onClick: (event: MouseEvent<HTMLElement>) => onBack(event),
    });
  }
  return <Button type="text" aria-label="Back" icon={icon} onClick={(event) => onBack(event)} />;
}

export function PageHeader(props: PageHeaderProps) {
  const { title, subTitle, tags, extra, breadcrumb, onBack, footer, className, style, children } = props;
  const backIcon = props.backIcon === undefined ? <ArrowLeftOutlined /> : props.backIcon;
  const hasHeading = Boolean(title || subTitle || tags || extra);
  const hasBreadcrumb = Boolean(breadcrumb);
  const classes = [PREFIX, `${PREFIX}-ghost`, className];
  if (hasBreadcrumb) classes.push(`${PREFIX}-has-breadcrumb`);
  if (footer) classes.push(`${PREFIX}-has-footer`);
  return (
    <div className={classes.filter(Boolean).join(" ")} style={style}>
      <BreadcrumbPart breadcrumb={breadcrumb} />
      {hasHeading && (
        <div className={`${PREFIX}-heading`}>
          <div className={`${PREFIX}-heading-left`}>
            {backIcon && onBack && <div className={`${PREFIX}-back`}>{backButton(backIcon, onBack)}</div>}
            {title && (
              <span
                className={`${PREFIX}-heading-title`}
                title={typeof title === "string" ? title : undefined}
              >
                {title}
              </span>
            )}
            {subTitle && (
              <span
                className={`${PREFIX}-heading-sub-title`}
                title={typeof subTitle === "string" ? subTitle : undefined}
              >
                {subTitle}
              </span>
            )}
            {tags && <span className={`${PREFIX}-heading-tags`}>{tags}</span>}
          </div>
          {extra && (
            <span className={`${PREFIX}-heading-extra`}>
              <Space wrap>{extra}</Space>
            </span>
          )}
        </div>
      )}
      {children && <div className={`${PREFIX}-content`}>{children}</div>}
      {footer && <div className={`${PREFIX}-footer`}>{footer}</div>}
    </div>
  );
}
