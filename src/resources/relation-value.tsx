import { useMany } from "@refinedev/core";
import { Skeleton, Tooltip, Typography } from "antd";
import { Link } from "react-router";
import { resourceByName } from "../../resources";
import { TruncatedText } from "./list/truncated-text";
import { relationTarget } from "./relation-target";
import { recordPath } from "./routes";

interface RelationValueProps {
  /** The related resource's name and label field (`x-relation`). */
  resource: string;
  labelField: string;
  id: string;
  /**
   * Every id of this relation on the screen. Each cell asks for the same list, so React
   * Query makes one request per page, not one per row.
   */
  ids?: readonly string[];
  /** In a table cell: one line, cut to fit with "...", whole on hover. */
  truncate?: boolean;
}

/** A foreign key as the related record's label, linked to its show page. */
export function RelationValue({ resource, labelField, id, ids, truncate = false }: RelationValueProps) {
  const wanted = ids?.length ? [...ids] : [id];
  const target = relationTarget(resource);
  const { result, query } = useMany({
    resource: target.resource,
    dataProviderName: target.dataProviderName,
    ids: wanted,
  });
  const related = resourceByName(resource);
  const record = result.data.find((r) => String(r.id) === id);

  if (!record) {
    if (query.isLoading) return <Skeleton.Input active size="small" style={{ width: 80, minWidth: 80 }} />;
    return (
      <Tooltip title="The linked record no longer exists or is not visible to you">
        <Typography.Text type="secondary">Unknown ({id.slice(0, 8)})</Typography.Text>
      </Tooltip>
    );
  }
  const label = String(record[labelField] ?? id);
  const draw = (shown: string, cut = false) =>
    related ? (
      <Link to={recordPath(related, "show", id)} aria-label={cut ? label : undefined}>
        {shown}
      </Link>
    ) : (
      <span>{shown}</span>
    );
  // Not a link: plain text, which TruncatedText keeps whole for assistive technology.
  return truncate ? <TruncatedText text={label} render={related ? draw : undefined} /> : draw(label);
}

/** The sorted, distinct non-empty values of `field` over `records`: the ids one page references. */
export function idsOf(records: readonly Record<string, unknown>[] | undefined, field: string): string[] {
  const ids = new Set<string>();
  for (const record of records ?? []) {
    const value = record[field];
    for (const id of Array.isArray(value) ? value : [value]) if (typeof id === "string" && id) ids.add(id);
  }
  return [...ids].sort();
}
