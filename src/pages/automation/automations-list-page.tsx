/**
 * `/automation/automations`: the generated list of automations with "Start from a template"
 * beside Create (issue 30). The gallery's code loads when it is first opened.
 */
import { AppstoreAddOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { lazy, Suspense, useState } from "react";
import ResourceListPage from "../../resources/list/list-page";
import type { ScreenProps } from "../../resources/types";
import "./automation.css";

const TemplateGallery = lazy(() => import("./template-gallery"));

export default function AutomationsListPage(props: ScreenProps) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  return (
    <>
      <ResourceListPage
        {...props}
        headerControls={
          <Button
            icon={<AppstoreAddOutlined aria-hidden />}
            onClick={() => {
              setWanted(true);
              setOpen(true);
            }}
          >
            Start from a template
          </Button>
        }
      />
      {wanted && (
        <Suspense fallback={null}>
          <TemplateGallery open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
