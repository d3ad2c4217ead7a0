/**
 * One catalogue page drawn at a given scale: its image (screen or zoom size, the zoom size's
 * URL making it on first request) with its hotspots over it, each a button named by what it does.
 */
import { type CSSProperties, useState } from "react";
import type { PageImageSize } from "../../schemas/pdf-library";
import type { PublicLink, PublicPage, PublicProduct } from "./api";
import { hotspotName } from "./hotspots";
import { ButtonIcon } from "./icons";

/** Icon size of the hotspot buttons, per spec §9 size. */
const ICON_SIZE = { sm: 14, md: 18, lg: 22 } as const;

interface HotspotProps {
  link: PublicLink;
  products: Record<string, PublicProduct>;
  onUse(link: PublicLink): void;
}

function Hotspot({ link, products, onUse }: HotspotProps) {
  const style: CSSProperties = {
    left: `${link.x * 100}%`,
    top: `${link.y * 100}%`,
    width: `${link.w * 100}%`,
    height: `${link.h * 100}%`,
  };
  const { button } = link;
  return (
    <button
      type="button"
      className={`vw-hotspot${button ? " vw-hotspot-with-button" : ""}`}
      style={style}
      aria-label={hotspotName(link, products)}
      title={button?.label || undefined}
      data-kind={link.kind}
      onClick={() => onUse(link)}
    >
      {button ? (
        <span
          className={`vw-hotspot-button vw-size-${button.size} vw-colour-${button.colour.toLowerCase()}`}
          aria-hidden="true"
        >
          <ButtonIcon icon={button.icon} size={ICON_SIZE[button.size] ?? ICON_SIZE.md} />
          {button.label ? <span className="vw-hotspot-label">{button.label}</span> : null}
        </span>
      ) : null}
    </button>
  );
}

export interface PageViewProps {
  page: PublicPage;
  /** Pixels per PDF point. */
  scale: number;
  imageSize: PageImageSize;
  links: PublicLink[];
  products: Record<string, PublicProduct>;
  onUse(link: PublicLink): void;
}

export function PageView({ page, scale, imageSize, links, products, onUse }: PageViewProps) {
  const width = Math.round(page.width * scale);
  const height = Math.round(page.height * scale);
  // The zoom size is made on its first request; when it cannot be had (too many first zooms
  // from this address, a server problem) the screen size stays, scaled up, rather than nothing.
  const [zoomFailed, setZoomFailed] = useState(false);
  const wanted = imageSize === "zoom" && zoomFailed ? "screen" : imageSize;
  return (
    <div className="vw-page" style={{ width, height }} data-page={page.page}>
      <img
        className="vw-page-image"
        src={page.images[wanted] || page.images.screen}
        onError={wanted === "zoom" ? () => setZoomFailed(true) : undefined}
        // While a zoom image loads (or is made, on its first request) the screen image shows
        // through, scaled, instead of a blank page.
        style={
          wanted === "zoom" && page.images.screen
            ? { backgroundImage: `url("${page.images.screen}")`, backgroundSize: "100% 100%" }
            : undefined
        }
        alt={`Page ${page.page}`}
        width={width}
        height={height}
        decoding="async"
        draggable={false}
      />
      {links.map((link) => (
        <Hotspot key={link.id} link={link} products={products} onUse={onUse} />
      ))}
    </div>
  );
}
