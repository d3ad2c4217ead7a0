/**
 * antd Card's tabs (`tabList`), left out of the admin app's build (the `lighterModules` plugin
 * in vite.config.ts puts this file in place of the Tabs that Card imports). No Atelier card
 * has tabs, yet Card's import would bring antd's Tabs (rc-tabs and its styles, about 8 KB of
 * compressed script) to the first screen, since Refine's Create, Edit and Show use a Card.
 * Screens with tabs import Tabs themselves and get the real one. A card given `tabList` gets
 * an error saying so, rather than silently no tabs.
 */
export default function CardTabs() {
  throw new Error(
    "A Card was given tabList, which this build leaves out (src/vendor/card-tabs.js): use Tabs inside the card, or remove the stand-in from vite.config.ts.",
  );
}
