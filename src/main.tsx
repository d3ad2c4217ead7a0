import "antd/dist/reset.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { startReadsOnLinkClicks } from "../providers/early-reads";
import { getAccessToken } from "../providers/token-store";
import { App, preloadScreens } from "./app";
import { checkBuildVersion, fetchBuildMeta } from "./lib/build-version";
import { reloadForNewBuild } from "./lib/chunk-reload";
import { disableConsoleInProduction } from "./lib/logger";

disableConsoleInProduction(import.meta.env.PROD);

// Spec §2: a tab holding an older bundle reloads hard once a newer build is published.
void checkBuildVersion({
  fetchMeta: () => fetchBuildMeta(),
  storage: window.localStorage,
  reload: () => window.location.reload(),
});

// A lazy chunk of an older build is gone after a deploy: load the new build instead.
// Offline, the chunk is not gone, only out of reach, and a reload would show the browser's
// error page: the error boundary waits for the connection instead.
window.addEventListener("vite:preloadError", (event) => {
  if (!navigator.onLine) return;
  if (reloadForNewBuild(window.sessionStorage, () => window.location.reload())) event.preventDefault();
});

const firstScreens = preloadScreens(window.location, getAccessToken());
startReadsOnLinkClicks(document, import.meta.env.BASE_URL, getAccessToken);

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
// The first render waits for the code of the screen it shows; index.html's splash shows
// meanwhile. Rendered before it, the screen suspends: React shows the fallback, then holds the
// screen back until 300 ms after it showed (lazy-screen.tsx), a third of a second of an idle
// page between the list's data in hand and its first row.
void firstScreens.then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
