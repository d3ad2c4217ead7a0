import { useGetIdentity } from "@refinedev/core";
import { Flex, Tag, Tooltip, Typography } from "antd";
import { lazy, Suspense } from "react";
import type { MeResponse } from "../../schemas/auth";
import type { EntitySchema } from "../../schemas/contract";
import { wordsOfKey } from "../../schemas/key-words";
import { formatMoney, formatPercent } from "../../schemas/money";
import { formatDmyTime, formatIsoDay, formatTimeOfDay } from "../lib/dates";
import { AssetValue } from "./asset-value";
import { enumLabel, type FieldKind, fieldKind, relationOf } from "./fields";
import { TruncatedText } from "./list/truncated-text";

import { RelationValue } from "./relation-value";
import { EMPTY_VALUE, Thumbnails } from "./thumbnails";
import "./rich-text.css";

/** Values of admin-managed lists: loaded by the screens that show such fields (CRM), not by every list. */
const OptionValue = lazy(async () => ({ default: (await import("./options")).OptionValue }));

/** Tag colours of labelled enums (statuses), by the value's position. */
const ENUM_COLORS = ["default", "green", "orange", "blue", "purple", "cyan", "magenta", "gold"];

const NUMBER = new Intl.NumberFormat(undefined, { maximumFractionDigits: 6 });

export { EMPTY_VALUE };

interface FieldValueProps {
  schema: EntitySchema;
  field: string;
  record: Record<string, unknown>;
  /** "cell": compact (one line, a few thumbnails); "detail": everything. */
  variant?: "cell" | "detail";
  /** Ids of this relation on the whole page, for one request per page. */
  relationIds?: readonly string[];
}

/** One field of a record, rendered by the field's kind: the list's cells and the show page's values. */
export function FieldValue({ schema, field, record, variant = "cell", relationIds }: FieldValueProps) {
  const value = record[field];
  if (value === null || value === undefined || value === "") return EMPTY_VALUE;
  const kind = fieldKind(schema, field);
  const definition = schema.properties[field];

  // A group of values (a CMS component, a block list, JSON): its parts in words by their labels,
  // not "[object Object]" nor the keys; on a record's page, each block of a list on a line of its own.
  if (typeof value === "object" && !(Array.isArray(value) && value.every((v) => typeof v !== "object"))) {
    const shape = definition as ValueShape | undefined;
    if (variant === "detail" && Array.isArray(value) && value.length > 1)
      return (
        <Flex vertical gap={4}>
          {value.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a stored list, in its order, not edited here
            <Typography.Text key={i}>{describeItem(item, shape?.items, i)}</Typography.Text>
          ))}
        </Flex>
      );
    return <Typography.Text>{describeValue(value, shape)}</Typography.Text>;
  }

  // A value of an admin-managed list (`x-options`): by its option's label.
  const list = definition?.["x-options"];
  if (list)
    return (
      <Suspense fallback={EMPTY_VALUE}>
        <OptionValue list={list} value={value} variant={variant} />
      </Suspense>
    );

  const relation = relationOf(definition);
  if (relation && typeof value === "string")
    return <RelationValue {...relation} id={value} ids={relationIds} truncate={variant === "cell"} />;
  // Many related records (a CMS entry's domains, a relation field taking many): each by its label.
  if (relation && Array.isArray(value)) {
    if (!value.length) return EMPTY_VALUE;
    return (
      <span style={variant === "cell" ? { whiteSpace: "nowrap" } : undefined}>
        {value.map((id, i) => (
          <span key={String(id)}>
            {i > 0 && ", "}
            <RelationValue {...relation} id={String(id)} ids={relationIds ?? value.map(String)} />
          </span>
        ))}
      </span>
    );
  }

  switch (kind) {
    case "enum": {
      const labelled = Boolean(definition?.["x-enumLabels"]);
      const index = definition?.enum?.indexOf(value as string) ?? -1;
      const color = labelled && index >= 0 ? ENUM_COLORS[index % ENUM_COLORS.length] : "default";
      return <Tag color={color}>{enumLabel(definition, value)}</Tag>;
    }
    case "boolean":
      return value ? <Tag color="green">Yes</Tag> : <Tag>No</Tag>;
    case "money": {
      const percentWhen = definition?.["x-percentWhen"];
      return (
        <span style={{ fontVariantNumeric: "tabular-nums" }}>
          {percentWhen && record[percentWhen.field] === percentWhen.value
            ? formatPercent(Number(value))
            : formatMoney(Number(value), typeof record.currency === "string" ? record.currency : null)}
        </span>
      );
    }
    case "integer":
    case "number":
      return <span style={{ fontVariantNumeric: "tabular-nums" }}>{NUMBER.format(Number(value))}</span>;
    case "datetime":
      return <InstantText value={String(value)} />;
    case "date":
      return <time dateTime={String(value)}>{formatIsoDay(String(value))}</time>;
    case "time":
      return <time dateTime={String(value)}>{formatTimeOfDay(String(value))}</time>;
    case "email":
      return <LinkText href={`mailto:${String(value)}`} text={String(value)} variant={variant} />;
    case "url":
      // Only web addresses become links: a `javascript:` URI is valid JSON Schema `uri` too.
      return /^https?:\/\//i.test(String(value)) ? (
        <LinkText href={String(value)} text={String(value)} variant={variant} external />
      ) : (
        <TextValue kind="text" value={value} variant={variant} />
      );
    case "assets":
      return (
        <AssetValue ids={Array.isArray(value) ? value.map(String) : [String(value)]} variant={variant} />
      );
    case "media":
    case "urls":
      return <Thumbnails urls={Array.isArray(value) ? value.map(String) : []} variant={variant} />;
    case "id":
      if (AUDIT_USER_FIELDS.has(field)) return <AuditUser id={String(value)} />;
      return (
        <Typography.Text code copyable={variant === "detail" ? { text: String(value) } : false}>
          {variant === "detail" ? String(value) : String(value).slice(0, 8)}
        </Typography.Text>
      );
    default:
      return <TextValue kind={kind} value={value} variant={variant} />;
  }
}

/** What describeValue reads of a field's JSON Schema: titles, nested fields, block kinds. */
interface ValueShape {
  title?: string;
  properties?: Record<string, ValueShape>;
  items?: ValueShape;
  oneOf?: ValueShape[];
  const?: unknown;
  /** The fields' order (a CMS component's, as its builder has them). */
  "x-order"?: readonly string[];
}

/** A block's own shape: the `oneOf` branch whose `__component` it is. */
function blockShape(shape: ValueShape | undefined, value: Record<string, unknown>): ValueShape | undefined {
  if (!shape?.oneOf) return shape;
  return shape.oneOf.find((b) => b.properties?.__component?.const === value.__component);
}

/** One item of a list: a block named by its kind and number ("Hero — 1: Heading: Spring"). */
function describeItem(item: unknown, shape: ValueShape | undefined, index: number): string {
  if (item && typeof item === "object" && !Array.isArray(item) && shape?.oneOf) {
    const own = blockShape(shape, item as Record<string, unknown>);
    const text = describeValue(item, own);
    return `${own?.title ?? "Block"} — ${index + 1}${text ? `: ${text}` : ""}`;
  }
  return describeValue(item, shape);
}

/**
 * A nested value as one line, each part by its field's label (`Button text: Shop now ·
 * Address: https://…`; a key in words where the schema has no title); lists by their items.
 */
export function describeValue(value: unknown, shape?: ValueShape): string {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value))
    return value.length ? value.map((v, i) => describeItem(v, shape?.items, i)).join("; ") : "—";
  if (typeof value === "object") {
    const own = blockShape(shape, value as Record<string, unknown>);
    const order = own?.["x-order"] ?? Object.keys(own?.properties ?? {});
    const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
    return Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => rank(a) - rank(b))
      .filter(([k, v]) => k !== "__component" && v !== null && v !== undefined && v !== "")
      .map(
        ([k, v]) =>
          `${own?.properties?.[k]?.title ?? wordsOfKey(k)}: ${describeValue(v, own?.properties?.[k])}`,
      )
      .join(" · ");
  }
  return String(value);
}

/**
 * An instant as every generated screen shows it, `DD-MM-YYYY HH:mm` in local time, like the
 * form's picker; the exact ISO instant on hover.
 */
function InstantText({ value }: { value: string }) {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <span>{value}</span>;
  return (
    <Tooltip title={date.toISOString()}>
      <time dateTime={date.toISOString()}>{formatDmyTime(date)}</time>
    </Tooltip>
  );
}

/** An email address or web address as a link; cut to fit a cell, whole on hover. */
function LinkText({
  href,
  text,
  variant,
  external,
}: {
  href: string;
  text: string;
  variant: "cell" | "detail";
  external?: boolean;
}) {
  const link = (shown: string, cut = false) => (
    <Typography.Link
      href={href}
      {...(external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
      aria-label={cut ? text : undefined}
    >
      {shown}
    </Typography.Link>
  );
  return variant === "cell" ? <TruncatedText text={text} render={link} /> : link(text);
}

/** The words of an HTML fragment, for a one-line cell. */
function textOfHtml(html: string): string {
  const doc = new DOMParser().parseFromString(html, "text/html");
  return (doc.body.textContent ?? "").replace(/\s+/g, " ").trim();
}

function TextValue({
  kind,
  value,
  variant,
}: {
  kind: FieldKind;
  value: unknown;
  variant: "cell" | "detail";
}) {
  const text = Array.isArray(value) ? value.join(", ") : String(value);
  if (kind === "richtext") {
    // Stored sanitised by the server (tags an editor writes, no scripts or handlers).
    if (variant === "detail")
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server before it is stored
      return <div className="atelier-rich-text__content" dangerouslySetInnerHTML={{ __html: text }} />;
    return <TruncatedText text={textOfHtml(text)} />;
  }
  if (variant === "detail") {
    return <span style={{ whiteSpace: kind === "multiline" ? "pre-wrap" : undefined }}>{text}</span>;
  }
  // One line in a cell, however long or multiline the text: cut to fit, whole on hover.
  return <TruncatedText text={text.replace(/\s+/g, " ")} />;
}

/** Audit fields holding the id of the user who wrote the record. */
const AUDIT_USER_FIELDS: ReadonlySet<string> = new Set(["created_by", "updated_by"]);

/** The user behind an audit field: "You" when it is the signed-in user, else the user's id. */
function AuditUser({ id }: { id: string }) {
  const { data: me } = useGetIdentity<MeResponse>();
  if (me?.userID === id) return <span>You ({`${me.first_name} ${me.last_name}`.trim()})</span>;
  return (
    <Typography.Text code copyable={{ text: id }}>
      {id.slice(0, 8)}
    </Typography.Text>
  );
}
