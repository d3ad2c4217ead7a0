import { useEffect, useState } from "react";
import { PAGE_IMAGE_SIZES, type PdfPage } from "../../../schemas/pdf-library";

/** Tries of the zoom-size image while the server is still making it (it may answer 202 first). */
const ZOOM_TRIES = 6;
const FIRST_RETRY_MS = 1000;

/**
 * The page image to show at a displayed width: the screen size, swapped for the zoom size
 * once that has loaded when the page is shown wider than the screen size has pixels. The zoom
 * size may be made on first request (and answer 202 until it is), so it is loaded aside and
 * tried again a few times; until then, and if it never comes, the screen size stays.
 */
export function usePageImage(page: PdfPage | undefined, displayWidth: number): string | undefined {
  const screen = page?.images.screen;
  const zoomUrl = page?.images.zoom;
  const needsZoom =
    Boolean(zoomUrl) && displayWidth * (globalThis.devicePixelRatio || 1) > PAGE_IMAGE_SIZES.screen * 1.1;
  const [loaded, setLoaded] = useState<ReadonlySet<string>>(() => new Set());

  useEffect(() => {
    if (!needsZoom || !zoomUrl || loaded.has(zoomUrl)) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    let image: HTMLImageElement | undefined;
    const attempt = (n: number) => {
      image = new Image();
      image.onload = () => !cancelled && setLoaded((s) => new Set(s).add(zoomUrl));
      image.onerror = () => {
        if (cancelled || n + 1 >= ZOOM_TRIES) return;
        timer = setTimeout(() => attempt(n + 1), FIRST_RETRY_MS * 2 ** n);
      };
      // The same URL each time (it may be signed); a 202 answer is not cached by the browser.
      image.src = zoomUrl;
    };
    attempt(0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      if (image) image.src = "";
    };
  }, [needsZoom, zoomUrl, loaded]);

  if (needsZoom && zoomUrl && loaded.has(zoomUrl)) return zoomUrl;
  return screen ?? zoomUrl;
}
