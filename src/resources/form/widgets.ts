/**
 * The widget registry of the generated forms, by the names the derived uiSchema uses
 * (form-schema.ts). Replacing an entry changes that widget in every resource's form: the
 * asset manager's picker will take the `media` entry.
 */
import type { RegistryWidgetsType } from "@rjsf/utils";
import { MEDIA_WIDGET, RELATION_WIDGET } from "../form-schema";
import { MediaUrlsWidget } from "./media-urls-widget";
import { RelationWidget } from "./relation-widget";

export const FORM_WIDGETS: RegistryWidgetsType = {
  [MEDIA_WIDGET]: MediaUrlsWidget,
  [RELATION_WIDGET]: RelationWidget,
};
