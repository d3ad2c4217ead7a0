/**
 * `/cms/entries/:type/*`: a content type's entries on the generated screens (list, create,
 * edit, show), from the type's definition read at run time. The show page carries the entry's
 * life: status, publish, versions.
 */
import { EyeOutlined } from "@ant-design/icons";
import { useOne } from "@refinedev/core";
import { Button, Flex, Result } from "antd";
import { type ComponentType, useCallback, useMemo, useState } from "react";
import { Route, Routes, useNavigate, useParams } from "react-router";
import type { ResourceDefinition } from "../../../resources/contract";
import { LoadError } from "../../components/load-error";
import { PageLoader } from "../../components/page-loader";
import type { EditPageProps } from "../../resources/form/edit-page";
import type { ListPageProps } from "../../resources/list/list-page";
import { screenOf } from "../../resources/screens";
import type { ResourceRecord } from "../../resources/types";
import { type ContentTypeRecord, entriesResourceName, variantDefinition } from "./entry-definition";
import { EntryLifecycleBar } from "./entry-lifecycle-bar";
import { EntryLocaleSwitch, ListLocaleSelect, listQueryOfLocale, VariantNotice } from "./entry-locales";
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

/** A type's entries in the default locale, in another, or missing in one (entry-locales.tsx). */
function EntryList({ def }: { def: ResourceDefinition }) {
  const List = screenOf(def, "list") as ComponentType<ListPageProps>;
  const [choice, setChoice] = useState("");
  return (
    <List
      def={def}
      query={listQueryOfLocale(choice)}
      headerControls={<ListLocaleSelect value={choice} onChange={setChoice} />}
    />
  );
}

/**
 * The generated edit form, with the entry's locales beside its title, and beside it the
 * draft's live preview when opened (entry-preview.tsx). A locale's version is edited with its
 * localised fields only.
 */
function EntryEdit({ def: typeDef, type }: { def: ResourceDefinition; type: ContentTypeRecord }) {
  const { id = "" } = useParams();
  const { query } = useOne<Record<string, unknown>>({ resource: typeDef.name, id, errorNotification: false });
  const record = query.data?.data;
  const locale = typeof record?.locale === "string" ? record.locale : null;
  const sourceId = typeof record?.source_id === "string" ? record.source_id : null;
  const def = useMemo(() => (locale ? variantDefinition(typeDef, type) : typeDef), [locale, typeDef, type]);
  const Edit = screenOf(def, "edit") as ComponentType<EditPageProps>;
  const [open, setOpen] = useState(() => localStorage.getItem(PREVIEW_OPEN_KEY) === "true");
  const [savedRevision, setSavedRevision] = useState<unknown>(null);
  const onDraftSaved = useCallback((record: ResourceRecord) => setSavedRevision(record.revision), []);
  const show = (value: boolean) => {
    setOpen(value);
    localStorage.setItem(PREVIEW_OPEN_KEY, String(value));
  };
  const controls = (
    <>
      {record && <EntryLocaleSwitch type={type.apiName} id={id} locale={locale} sourceId={sourceId} />}
      <Button icon={<EyeOutlined aria-hidden />} aria-pressed={open} onClick={() => show(!open)}>
        {open ? "Hide preview" : "Preview"}
      </Button>
    </>
  );
  return (
    <Flex gap={16} align="stretch">
      <div style={{ flex: "1 1 0", minWidth: 0 }}>
        {locale && sourceId && <VariantNotice type={type.apiName} sourceId={sourceId} locale={locale} />}
        <Edit def={def} headerButtons={controls} onDraftSaved={onDraftSaved} />
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
  const typeRecord = types.data?.find((t) => entriesResourceName(t.apiName) === def.name);
  const Create = screenOf(def, "create");
  return (
    <Routes>
      <Route index element={<EntryList key={`${def.name}:list`} def={def} />} />
      <Route path="create" element={<Create key={`${def.name}:create`} def={def} />} />
      <Route
        path="edit/:id"
        element={typeRecord && <EntryEdit key={`${def.name}:edit`} def={def} type={typeRecord} />}
      />
      <Route path="show/:id" element={<EntryShow key={`${def.name}:show`} def={def} />} />
    </Routes>
  );
}
