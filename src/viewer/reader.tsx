/**
 * The viewer of a loaded catalogue: the top bar (title, search, cart), the pages with their
 * hotspots, the page and zoom controls, the thumbnails, and the dialogs hotspots open.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { searchedWords, sendEvent } from "./analytics";
import {
  CheckoutRefused,
  checkoutCart,
  type PublicLink,
  type PublicPdf,
  type PublicProduct,
  searchCatalogue,
} from "./api";
import { cartCount, checkoutKey, forgetCheckoutKey } from "./cart";
import { CartDrawer } from "./cart-drawer";
import { Controls } from "./controls";
import { HotspotDialog } from "./hotspot-dialog";
import { type HotspotContext, type HotspotDialog as HotspotDialogData, runHotspot } from "./hotspots";
import { Icon } from "./icons";
import { clampPage, nextPage, pageFromHash, previousPage, spreadOf, zoomIn, zoomOut } from "./navigation";
import { PageStage } from "./page-stage";
import { SearchBox, SearchResults, type SearchState } from "./search";
import { Thumbnails } from "./thumbnails";
import { storage, useCart } from "./use-cart";
import { useMediaQuery } from "./use-media-query";

/** Spec §9: how long a toast stays. */
const TOAST_MS = 2000;
/** Wide and landscape enough for two pages side by side. */
const SPREAD_QUERY = "(min-width: 1100px) and (min-aspect-ratio: 5/4)";

/** Catalogues whose view was counted in this page's life (React may run effects twice). */
const viewed = new Set<string>();

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

export interface ReaderProps {
  pdf: PublicPdf;
  /** The reference of the address, for the search calls. */
  catalogueRef: string;
  visitor: string;
}

export function Reader({ pdf, catalogueRef, visitor }: ReaderProps) {
  const count = pdf.pages.length;
  const [page, setPage] = useState(() => clampPage(pageFromHash(window.location.hash) ?? 1, count));
  const [zoom, setZoom] = useState(1);
  const [dialog, setDialog] = useState<HotspotDialogData | null>(null);
  const [cartOpen, setCartOpen] = useState(false);
  const [search, setSearch] = useState<SearchState | null>(null);
  const [toast, setToast] = useState<{ text: string; at: number } | null>(null);
  const searchAbort = useRef<AbortController | null>(null);
  const cart = useCart(pdf.id, pdf.products);
  const spread = useMediaQuery(SPREAD_QUERY) && count > 2;
  const narrow = useMediaQuery("(max-width: 720px)");

  const shown = spreadOf(page, count, spread);
  const shownPages = shown.map((n) => pdf.pages.find((p) => p.page === n)).filter((p) => p !== undefined);
  const previous = previousPage(page, count, spread);
  const next = nextPage(page, count, spread);

  const event = useCallback(
    (e: Omit<Parameters<typeof sendEvent>[0], "pdfId">) => sendEvent({ pdfId: pdf.id, ...e }, visitor),
    [pdf.id, visitor],
  );

  const goTo = useCallback(
    (wanted: number) => {
      const target = clampPage(wanted, count);
      setPage(target);
      const { pathname, search } = window.location;
      window.history.replaceState(null, "", `${pathname}${search}${target === 1 ? "" : `#page=${target}`}`);
    },
    [count],
  );

  const notify = useCallback((text: string) => setToast({ text, at: Date.now() }), []);

  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(() => setToast(null), TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [toast]);

  // One view per catalogue opened, on the page it was opened at.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the page turned to later is no new view
  useEffect(() => {
    document.title = pdf.name;
    if (viewed.has(pdf.id)) return;
    viewed.add(pdf.id);
    event({ type: "view", page });
  }, [pdf.id, pdf.name, event]);

  // The next pages' images are fetched ahead, so turning the page shows them at once.
  useEffect(() => {
    if (next === null) return;
    for (const n of spreadOf(next, count, spread)) {
      const upcoming = pdf.pages.find((p) => p.page === n);
      if (upcoming) new Image().src = upcoming.images.screen;
    }
  }, [next, count, spread, pdf.pages]);

  const addProduct = useCallback(
    (product: PublicProduct, quantity = 1) => {
      cart.add(product, quantity);
      notify(
        quantity > 1
          ? `Added ${quantity} × ${product.name} to the cart`
          : `Added ${product.name} to the cart`,
      );
    },
    [cart.add, notify],
  );

  const hotspots: HotspotContext = {
    products: pdf.products,
    goTo,
    openUrl: (url) => window.open(url, "_blank", "noopener,noreferrer"),
    showDialog: setDialog,
    addProduct: (product) => addProduct(product),
    unavailable: notify,
  };

  const activate = (link: PublicLink) => {
    event({ type: "click", page: link.page, linkId: link.id });
    runHotspot(link, hotspots);
  };

  const runSearch = async (q: string) => {
    const word = searchedWords(q);
    if (!word) return;
    event({ type: "search", word });
    searchAbort.current?.abort();
    const abort = new AbortController();
    searchAbort.current = abort;
    setSearch({ q: word, status: "loading", hits: [] });
    try {
      const hits = await searchCatalogue(catalogueRef, word, abort.signal);
      if (!abort.signal.aborted) setSearch({ q: word, status: "done", hits });
    } catch {
      if (!abort.signal.aborted) setSearch({ q: word, status: "error", hits: [] });
    }
  };

  // Arrow keys (and Page Up/Down, Home, End) turn pages; + and − zoom. Not while typing or
  // while a dialog is open.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      if (document.querySelector("dialog[open]")) return;
      const actions: Record<string, (() => void) | undefined> = {
        ArrowLeft: previous === null ? undefined : () => goTo(previous),
        PageUp: previous === null ? undefined : () => goTo(previous),
        ArrowRight: next === null ? undefined : () => goTo(next),
        PageDown: next === null ? undefined : () => goTo(next),
        Home: () => goTo(1),
        End: () => goTo(count),
        "+": () => setZoom(zoomIn),
        "=": () => setZoom(zoomIn),
        "-": () => setZoom(zoomOut),
        "0": () => setZoom(1),
      };
      const action = actions[e.key];
      if (!action) return;
      e.preventDefault();
      action();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [previous, next, count, goTo]);

  const items = cartCount(cart.cart);

  return (
    <div className="vw-app">
      <header className="vw-top">
        <h1 className="vw-title">{pdf.name}</h1>
        <SearchBox onSearch={(q) => void runSearch(q)} />
        <button
          type="button"
          className="vw-cart-btn"
          aria-label={`Cart (${items})`}
          onClick={() => setCartOpen(true)}
        >
          <Icon name="cart" size={22} />
          <span className="vw-cart-text">Cart</span>
          {items > 0 ? (
            <span className="vw-badge" aria-hidden="true">
              {items > 99 ? "99+" : items}
            </span>
          ) : null}
        </button>
      </header>

      <main className="vw-main">
        <PageStage
          pages={shownPages}
          zoom={zoom}
          links={pdf.links}
          products={pdf.products}
          onUse={activate}
          onSwipe={(direction) => {
            const target = direction === "next" ? next : previous;
            if (target !== null) goTo(target);
          }}
        />
        {search ? (
          <SearchResults
            search={search}
            onOpen={(n) => {
              goTo(n);
              if (narrow) setSearch(null);
            }}
            onClose={() => setSearch(null)}
          />
        ) : null}
        <div className="vw-toast-region" role="status" aria-live="polite">
          {toast ? (
            <p key={toast.at} className="vw-toast">
              {toast.text}
            </p>
          ) : null}
        </div>
      </main>

      <Controls
        page={page}
        pageCount={count}
        zoom={zoom}
        onPrevious={previous === null ? null : () => goTo(previous)}
        onNext={next === null ? null : () => goTo(next)}
        onGoTo={goTo}
        onZoomIn={() => setZoom(zoomIn)}
        onZoomOut={() => setZoom(zoomOut)}
        onFit={() => setZoom(1)}
      />
      <Thumbnails pages={pdf.pages} shown={shown} onGoTo={goTo} />

      {dialog ? <HotspotDialog dialog={dialog} onAdd={addProduct} onClose={() => setDialog(null)} /> : null}
      {cartOpen ? (
        <CartDrawer
          cart={cart.cart}
          onQuantity={cart.setQuantity}
          onRemove={cart.remove}
          onClose={() => setCartOpen(false)}
          onCheckout={
            pdf.checkout
              ? async (currency) => {
                  const lines = cart.cart.filter((l) => l.currency === currency);
                  // One key per cart: a retry (or a second click) makes no second store cart.
                  const key = checkoutKey(storage(), `${pdf.id}.${currency}`, lines);
                  const url = await checkoutCart(pdf.id, lines, key).catch((error: unknown) => {
                    // Refused: the next try is a new request, not a replay of the refusal.
                    if (error instanceof CheckoutRefused)
                      forgetCheckoutKey(storage(), `${pdf.id}.${currency}`);
                    throw error;
                  });
                  window.location.assign(url);
                }
              : undefined
          }
        />
      ) : null}
    </div>
  );
}
