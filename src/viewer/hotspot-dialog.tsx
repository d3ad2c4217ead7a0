/**
 * The dialogs hotspots open: a YouTube video, an embedded page in a sandboxed iframe, a
 * text (always as text, never HTML), and a product's details with a quantity to add.
 */
import { useState } from "react";
import { formatMoney } from "../../schemas/money";
import type { PublicProduct } from "./api";
import { Dialog } from "./dialog";
import { type HotspotDialog as HotspotDialogData, iframeSandbox } from "./hotspots";
import { QuantityPicker } from "./quantity-picker";

function ProductDetails({
  product,
  onAdd,
  onClose,
}: {
  product: PublicProduct;
  onAdd(product: PublicProduct, quantity: number): void;
  onClose(): void;
}) {
  const [quantity, setQuantity] = useState(1);
  return (
    <Dialog
      title={product.name}
      onClose={onClose}
      footer={
        <button
          type="button"
          className="vw-primary-btn"
          onClick={() => {
            onAdd(product, quantity);
            onClose();
          }}
        >
          Add to cart
        </button>
      }
    >
      <div className="vw-product">
        {product.image ? <img className="vw-product-image" src={product.image} alt={product.name} /> : null}
        <div className="vw-product-info">
          <p className="vw-muted">SKU {product.sku_code}</p>
          <p className="vw-product-price">{formatMoney(product.price, product.currency)}</p>
          {product.description ? <p className="vw-text">{product.description}</p> : null}
          <QuantityPicker label="Quantity" itemName={product.name} value={quantity} onChange={setQuantity} />
        </div>
      </div>
    </Dialog>
  );
}

export interface HotspotDialogProps {
  dialog: HotspotDialogData;
  onAdd(product: PublicProduct, quantity: number): void;
  onClose(): void;
}

export function HotspotDialog({ dialog, onAdd, onClose }: HotspotDialogProps) {
  switch (dialog.kind) {
    case "video":
      return (
        <Dialog title="Video" variant="wide" onClose={onClose}>
          <div className="vw-embed">
            <iframe
              src={dialog.url}
              title="YouTube video player"
              allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
              referrerPolicy="strict-origin-when-cross-origin"
            />
          </div>
        </Dialog>
      );
    case "iframe":
      return (
        <Dialog title="Embedded page" variant="wide" onClose={onClose}>
          <div className="vw-embed vw-embed-page">
            <iframe
              src={dialog.url}
              title="Embedded page"
              sandbox={iframeSandbox(dialog.url, window.location.origin)}
              referrerPolicy="no-referrer"
              loading="lazy"
            />
          </div>
          <p className="vw-muted vw-embed-source">
            <a href={dialog.url} target="_blank" rel="noopener noreferrer">
              Open in a new tab
            </a>
          </p>
        </Dialog>
      );
    case "text":
      return (
        <Dialog title={dialog.title} onClose={onClose}>
          <p className="vw-text">{dialog.text}</p>
        </Dialog>
      );
    case "product":
      return <ProductDetails product={dialog.product} onAdd={onAdd} onClose={onClose} />;
  }
}
