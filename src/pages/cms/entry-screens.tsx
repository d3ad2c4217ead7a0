/**
 * `/cms/entries/:type/*`: a content type's entries on the generated screens (list, create,
 * edit, show), from the type's definition read at run time. The show page carries the entry's
 * life: status, publish, versions.
 */
import { EyeOutlined } from "@ant-design/icons";
import { Button, Flex, Result } from "antd";
import { type ComponentType, useCallback, useState } from "react";
import { Route, Routes, useNavigate, useParams } from "react-router";
import type { ResourceDefinition } from "../../../resources/contract";
import { LoadError } from "../../components/load-error";
import { PageLoader } from "../../components/page-loader";
import type { EditPageProps } from "../../resources/form/edit-page";
import { screenOf } from "../../resources/screens";
import type { ResourceRecord } from "../../resources/types";
import { entriesResourceName } from "./entry-definition";
import { EntryLifecycleBar } from "./entry-lifecycle-bar";
import { EntryPreviewPane } from "./entry-preview";
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

/** Whether the preview pane is open, kept for the next entry opened. */
const PREVIEW_OPEN_KEY = "atelier.cms.previewOpen";

/** The generated edit form, and beside it the draft's live preview when opened (entry-preview.tsx). */
function EntryEdit({ def }: { def: ResourceDefinition }) {
  const { id = "" } = useParams();
  const Edit = screenOf(def, "edit") as ComponentType<EditPageProps>;
  const [open, setOpen] = useState(() => localStorage.getItem(PREVIEW_OPEN_KEY) === "true");
  const [savedRevision, setSavedRevision] = useState<unknown>(null);
  const onDraftSaved = useCallback((record: ResourceRecord) => setSavedRevision(record.revision), []);
  const show = (value: boolean) => {
    setOpen(value);
    localStorage.setItem(PREVIEW_OPEN_KEY, String(value));
  };
  const toggle = (
    <Button icon={<EyeOutlined aria-hidden />} aria-pressed={open} onClick={() => show(!open)}>
      {open ? "Hide preview" : "Preview"}
    </Button>
  );
  return (
    <Flex gap={16} align="stretch">
      <div style={{ flex: "1 1 0", minWidth: 0 }}>
        <Edit def={def} headerButtons={toggle} onDraftSaved={onDraftSaved} />
      </div>
      {open && (
        <div style={{ flex: "0 0 min(46%, 760px)", minWidth: 320 }}>
          <EntryPreviewPane
            type={def.name.replace(/^entries\//, "")}
            id={id}
            savedRevision={savedRevision}
            onClose={() => show(false)}
          />
        </div>
      )}
    </Flex>
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
  return (
    <Routes>
      <Route index element={<List key={`${def.name}:list`} def={def} />} />
      <Route path="create" element={<Create key={`${def.name}:create`} def={def} />} />
      <Route path="edit/:id" element={<EntryEdit key={`${def.name}:edit`} def={def} />} />
      <Route path="show/:id" element={<EntryShow key={`${def.name}:show`} def={def} />} />
    </Routes>
  );
}
