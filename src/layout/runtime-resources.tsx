/**
 * Resources defined at run time: each CMS collection and single is a resource of its own (menu
 * entry under CMS, generated screens, live list updates), read from the server for a user who
 * has the CMS module. Rendered inside Refine, it hands them up to the layout's resource list.
 */
import { FileOutlined, FileTextOutlined } from "@ant-design/icons";
import { type ResourceProps, useCan } from "@refinedev/core";
import { useEffect } from "react";
import { useContentTypes, useEntryDefinitions } from "../pages/cms/use-content-types";
import { moduleGroupId } from "../resources/routes";
import { entityResource } from "./resources";

export function RuntimeResources({ onChange }: { onChange: (resources: readonly ResourceProps[]) => void }) {
  const { data: can } = useCan({ resource: moduleGroupId("cms"), action: "list" });
  const types = useContentTypes(can?.can === true);
  const defs = useEntryDefinitions(can?.can ? types.data : undefined);
  useEffect(
    () =>
      onChange(
        defs.map((def) => {
          const resource = entityResource(def);
          // Icons of run-time types are imported here: the build only bundles the icons definition files name.
          const Icon = def.icon === "FileOutlined" ? FileOutlined : FileTextOutlined;
          const icon = <Icon key={def.name} aria-hidden />;
          return { ...resource, meta: { ...resource.meta, icon } };
        }),
      ),
    [defs, onChange],
  );
  return null;
}
