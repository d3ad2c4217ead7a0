/**
 * Who else has this record's edit form open, above the form: each by name, from the socket's
 * presence (server/realtime/presence.ts). Nothing while this user is alone on it.
 */
import { useGetIdentity } from "@refinedev/core";
import { Alert, Avatar, Flex, Tooltip } from "antd";
import { useEffect, useState } from "react";
import { watchPresence } from "../../../providers/live-provider";
import type { MeResponse } from "../../../schemas/auth";
import type { Editor } from "../../../schemas/realtime";
import { joinWords } from "../fields";

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join("");

export function EditorsNotice({
  resource,
  id,
  singular,
}: {
  resource: string;
  id: string;
  singular: string;
}) {
  const [editors, setEditors] = useState<Editor[]>([]);
  const { data: me } = useGetIdentity<MeResponse>();
  useEffect(() => watchPresence(resource, id, setEditors), [resource, id]);
  const others = editors.filter((e) => e.userId !== me?.userID);
  if (!others.length) return null;
  const names = joinWords(
    others.map((e) => e.name),
    "and",
  );
  return (
    <Alert
      type="info"
      showIcon
      role="status"
      data-testid="other-editors"
      style={{ marginBottom: 16 }}
      message={
        <Flex align="center" gap={8} wrap>
          <Avatar.Group max={{ count: 3 }} size="small">
            {others.map((e) => (
              <Tooltip key={e.userId} title={e.name}>
                <Avatar size="small">{initials(e.name)}</Avatar>
              </Tooltip>
            ))}
          </Avatar.Group>
          <span>
            {names} {others.length === 1 ? "is" : "are"} also editing this {singular.toLowerCase()}. If they
            save first, you will be asked before anything is overwritten.
          </span>
        </Flex>
      }
    />
  );
}
