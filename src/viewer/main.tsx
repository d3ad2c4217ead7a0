/** Entry of the public catalogue viewer (viewer.html): React only, no admin app. */
import "./viewer.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ViewerApp } from "./viewer-app";

const root = document.getElementById("root");
if (!root) throw new Error("viewer.html has no #root element");
createRoot(root).render(
  <StrictMode>
    <ViewerApp />
  </StrictMode>,
);
