/**
 * A draft just made from a template (`?template=<id>` in the address, issue 30): until its first
 * publish, what it still needs — the template's choices (which form, which sequence, who gets
 * the mail), and anything else a publish would refuse — is listed above the canvas and marked
 * on its nodes, as the person goes (publishProblems, the server's own check).
 */
import { Alert, Button } from "antd";
import { useMemo } from "react";
import type { AutomationDefinition } from "../../../schemas/automation";
import { publishProblems } from "../../../schemas/automation-checks";
import { type AutomationTemplate, templateById } from "../../../schemas/automation-templates";
import { plural } from "../../lib/text";

const NONE: ReadonlyMap<string, readonly string[]> = new Map();

/** The template the draft came from (null once published, or when it came from none). */
export function useDraftTemplate(templateId: string | null, publishedVersion: number | null | undefined) {
  return useMemo(
    () => (templateId && !publishedVersion ? (templateById(templateId) ?? null) : null),
    [templateId, publishedVersion],
  );
}

/** What the draft still needs before it can be published, by node (none without a template). */
export function useTemplateChoices(
  template: AutomationTemplate | null,
  definition: AutomationDefinition | null,
): ReadonlyMap<string, readonly string[]> {
  return useMemo(() => {
    if (!template || !definition) return NONE;
    const byNode = new Map<string, string[]>();
    for (const p of publishProblems(definition))
      byNode.set(p.nodeId, [...(byNode.get(p.nodeId) ?? []), p.message]);
    return byNode;
  }, [template, definition]);
}

export function TemplateChoices({
  template,
  choices,
  onSelect,
}: {
  template: AutomationTemplate;
  choices: ReadonlyMap<string, readonly string[]>;
  onSelect: (nodeId: string) => void;
}) {
  const left = [...choices.entries()];
  const count = left.reduce((n, [, ms]) => n + ms.length, 0);
  if (!count)
    return (
      <Alert
        type="success"
        showIcon
        className="af-problems"
        role="status"
        message={`“${template.name}”: every choice is made. Publish when you are ready.`}
      />
    );
  return (
    <Alert
      type="warning"
      showIcon
      className="af-problems"
      role="status"
      message={`From the template “${template.name}”: ${plural(count, "choice")} to make before you publish`}
      description={
        <ul>
          {left.flatMap(([nodeId, messages]) =>
            messages.map((m) => (
              <li key={`${nodeId}:${m}`}>
                <Button type="link" size="small" onClick={() => onSelect(nodeId)}>
                  {m}
                </Button>
              </li>
            )),
          )}
        </ul>
      }
    />
  );
}
