/**
 * The widget registry of the generated forms, by the names the derived uiSchema uses
 * (form-schema.ts). Replacing an entry changes that widget in every resource's form: the
 * asset manager's picker will take the `media` entry.
 */
import type { RegistryWidgetsType, TemplatesType } from "@rjsf/utils";
import {
  BLOCK_KIND_WIDGET,
  DAY_WIDGET,
  INSTANT_WIDGET,
  MEDIA_WIDGET,
  OPTIONS_WIDGET,
  RELATION_WIDGET,
  RICH_TEXT_WIDGET,
  TIME_WIDGET,
} from "../form-schema";
import { AssetWidget } from "./asset-widget";
import { BlankNumberInputTemplate } from "./blank-number-input";
import { AddButton, BlockKindWidget } from "./blocks";
import { DayWidget, InstantWidget, TimeOfDayWidget } from "./date-widgets";
import { MediaUrlsWidget } from "./media-urls-widget";
import { OptionsWidget } from "./options-widget";
import { RelationWidget } from "./relation-widget";
import { RichTextWidget, TextOrRichTextWidget } from "./rich-text-widget";

export const FORM_WIDGETS: RegistryWidgetsType = {
  asset: AssetWidget,
  [BLOCK_KIND_WIDGET]: BlockKindWidget,
  [DAY_WIDGET]: DayWidget,
  [INSTANT_WIDGET]: InstantWidget,
  [MEDIA_WIDGET]: MediaUrlsWidget,
  [OPTIONS_WIDGET]: OptionsWidget,
  [RELATION_WIDGET]: RelationWidget,
  [TIME_WIDGET]: TimeOfDayWidget,
  [RICH_TEXT_WIDGET]: RichTextWidget,
  TextWidget: TextOrRichTextWidget,
};

/** Templates replaced in every generated form. */
export const FORM_TEMPLATES: Partial<TemplatesType> = {
  BaseInputTemplate: BlankNumberInputTemplate,
  // rjsf merges these over its own buttons (Form's registry), so only the add button is given.
  ButtonTemplates: { AddButton } as Partial<
    TemplatesType["ButtonTemplates"]
  > as TemplatesType["ButtonTemplates"],
};
