/**
 * `/cms/entries/:type/*`: a content type's entries on the generated screens (list, create,
 * edit, show), from the type's definition read at run time. The show page carries the entry's
 * life: status, publish, versions.
 */
import { Button, Result } from "antd";
import { Route, Routes, useNavigate, useParams } from "react-router";
import type { ResourceDefinition } from "../../../resources/contract";
import { LoadError } from "../../components/load-error";
import { PageLoader } from "../../components/page-loader";
import { screenOf } from "../../resources/screens";
import { entriesResourceName } from "./entry-definition";
import { EntryLifecycleBar } from "./entry-lifecycle-bar";
import { useContentTypes, useEntryDefinitions } from "./use-content-types";

function EntryShow({ def }: { def: ResourceDefinition }) {
  const { id } = useParams();
  const Show = screenOf(def, "show");
  return (
    <>
      {id && <EntryLifecycleBar def={def} id={id} />}
      <Show def={def} />
    </>
  );
}

export default function EntryScreens() {
  const { type = "" } = useParams();
  const navigate = useNavigate();
  const types = useContentTypes();
  const defs = useEntryDefinitions(types.data);
  if (types.isLoading) return <PageLoader />;
  if (types.isError)
    return <LoadError what="content types" error={types.error} onRetry={() => types.refetch()} />;
  const def = defs.find((d) => d.name === entriesResourceName(type));
  if (!def)
    return (
      <Result
        status="404"
        title="No such content type"
        subTitle={`There is no collection or single called '${type}'.`}
        extra={
          <Button type="primary" onClick={() => navigate("/cms/content-types")}>
            Content types
          </Button>
        }
      />
    );
  const List = screenOf(def, "list");
  const Create = screenOf(def, "create");
  const Edit = screenOf(def, "edit");
  return (
    <Routes>
      <Route index element={<List key={`${def.name}:list`} def={def} />} />
      <Route path="create" element={<Create key={`${def.name}:create`} def={def} />} />
      <Route path="edit/:id" element={<Edit key={`${def.name}:edit`} def={def} />} />
      <Route path="show/:id" element={<EntryShow key={`${def.name}:show`} def={def} />} />
    </Routes>
  );
}
