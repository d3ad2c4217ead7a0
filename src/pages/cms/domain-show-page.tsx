/**
 * `/cms/domains/show/:id`: the generated show screen of a domain, with its API tokens below.
 */
import { useOne } from "@refinedev/core";
import { useParams } from "react-router";
import ResourceShowPage from "../../resources/show/show-page";
import type { ScreenProps } from "../../resources/types";
import { DomainTokens } from "./domain-tokens";

export default function DomainShowPage({ def }: ScreenProps) {
  const { id } = useParams();
  const { result } = useOne<{ key: string; access: string }>({
    resource: def.name,
    id,
    errorNotification: false,
  });
  return (
    <>
      <ResourceShowPage def={def} />
      {id && result?.key ? (
        <DomainTokens domainId={id} domainKey={result.key} access={result.access} />
      ) : null}
    </>
  );
}
