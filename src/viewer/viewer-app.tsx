/**
 * The public catalogue viewer (`/view/{id or slug}`): loads the catalogue named by the
 * address and shows it, or says it is not available (unknown or unpublished: 404), or that
 * it could not be loaded, with a retry.
 */
import { type ReactNode, useEffect, useState } from "react";
import { visitorId } from "./analytics";
import { fetchCatalogue, NotAvailableError, type PublicPdf, refFromPath } from "./api";
import { Reader } from "./reader";

type Load =
  | { status: "loading" }
  | { status: "ready"; pdf: PublicPdf }
  | { status: "missing" }
  | { status: "failed" };

const keptVisitor = () => {
  try {
    return visitorId(window.localStorage);
  } catch {
    return visitorId(null);
  }
};

function Message({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <main className="vw-message">
      <h1>{title}</h1>
      {children}
    </main>
  );
}

export function ViewerApp() {
  const [catalogueRef] = useState(() => refFromPath(window.location.pathname));
  const [visitor] = useState(keptVisitor);
  const [attempt, setAttempt] = useState(0);
  const [load, setLoad] = useState<Load>(() =>
    catalogueRef ? { status: "loading" } : { status: "missing" },
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt loads again
  useEffect(() => {
    if (!catalogueRef) return;
    const abort = new AbortController();
    setLoad({ status: "loading" });
    fetchCatalogue(catalogueRef, abort.signal).then(
      (pdf) => setLoad({ status: "ready", pdf }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        setLoad(error instanceof NotAvailableError ? { status: "missing" } : { status: "failed" });
      },
    );
    return () => abort.abort();
  }, [catalogueRef, attempt]);

  useEffect(() => {
    if (load.status === "missing") document.title = "Catalogue not available";
  }, [load.status]);

  switch (load.status) {
    case "loading":
      return (
        <div className="vw-message" role="status" aria-live="polite">
          <span className="vw-spinner" aria-hidden="true" />
          <p>Loading the catalogue…</p>
        </div>
      );
    case "missing":
      return (
        <Message title="This catalogue is not available">
          <p>It may have been unpublished, or the address may be mistyped.</p>
        </Message>
      );
    case "failed":
      return (
        <Message title="The catalogue could not be loaded">
          <p>Check your connection and try again.</p>
          <button type="button" className="vw-primary-btn" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </Message>
      );
    case "ready":
      return <Reader pdf={load.pdf} catalogueRef={catalogueRef ?? load.pdf.id} visitor={visitor} />;
  }
}
