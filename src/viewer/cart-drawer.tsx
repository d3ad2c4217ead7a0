/**
 * The cart, in a drawer: a line per product with its image, name, SKU, unit price, quantity
 * (− and +), removal and line total, then one total per currency.
 */
import { useRef, useState } from "react";
import { formatMoney } from "../../schemas/money";
import { type Cart, type CartLine, lineTotal, totalsByCurrency } from "./cart";
import { Dialog } from "./dialog";
import { Icon } from "./icons";
import { QuantityPicker } from "./quantity-picker";

export interface CartDrawerProps {
  cart: Cart;
  /** Hands the lines of one currency to the online store; absent when no store takes the cart. */
  onCheckout?: (currency: string) => Promise<void>;
  onQuantity(productId: string, quantity: number): void;
  onRemove(productId: string): void;
  onClose(): void;
}

function Line({
  line,
  onQuantity,
  onRemove,
}: { line: CartLine } & Pick<CartDrawerProps, "onQuantity" | "onRemove">) {
  return (
    <li className="vw-cart-line" data-product={line.productId}>
      {line.image ? (
        <img className="vw-cart-image" src={line.image} alt="" loading="lazy" />
      ) : (
        <span className="vw-cart-image" aria-hidden="true" />
      )}
      <div className="vw-cart-info">
        <p className="vw-cart-name">{line.name}</p>
        <p className="vw-muted">SKU {line.sku}</p>
        <p className="vw-muted">{formatMoney(line.price, line.currency)} each</p>
      </div>
      <div className="vw-cart-actions">
        <QuantityPicker
          label={`Quantity of ${line.name}`}
          itemName={line.name}
          value={line.quantity}
          min={1}
          onChange={(quantity) => onQuantity(line.productId, quantity)}
        />
        <p className="vw-cart-line-total" data-testid="line-total">
          {formatMoney(lineTotal(line), line.currency)}
        </p>
        <button
          type="button"
          className="vw-icon-btn vw-danger"
          aria-label={`Remove ${line.name}`}
          onClick={() => onRemove(line.productId)}
        >
          <Icon name="trash" size={18} />
        </button>
      </div>
    </li>
  );
}

export function CartDrawer({ cart, onQuantity, onRemove, onClose, onCheckout }: CartDrawerProps) {
  const totals = totalsByCurrency(cart);
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // Set at once, not at the next render: a double click's second event sees it.
  const inFlight = useRef(false);
  const checkout = async (currency: string) => {
    if (!onCheckout || inFlight.current) return;
    inFlight.current = true;
    setBusy(currency);
    setProblem(null);
    try {
      await onCheckout(currency);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      setBusy(null);
      inFlight.current = false;
    }
  };
  return (
    <Dialog
      title="Cart"
      variant="drawer"
      onClose={onClose}
      footer={
        cart.length > 0 ? (
          <div className="vw-cart-footer">
            <dl className="vw-cart-totals">
              {totals.map(({ currency, total }) => (
                <div key={currency} data-testid="cart-total">
                  <dt>{totals.length > 1 ? `Total (${currency})` : "Total"}</dt>
                  <dd>{formatMoney(total, currency)}</dd>
                </div>
              ))}
            </dl>
            {onCheckout ? (
              <div className="vw-cart-checkout">
                {problem ? (
                  <p className="vw-cart-problem" role="alert">
                    {problem}
                  </p>
                ) : null}
                {totals.map(({ currency }) => (
                  <button
                    key={currency}
                    type="button"
                    className="vw-primary-btn"
                    disabled={busy !== null}
                    aria-busy={busy === currency}
                    onClick={() => void checkout(currency)}
                  >
                    {busy === currency
                      ? "Opening the checkout…"
                      : totals.length > 1
                        ? `Check out the ${currency} items`
                        : "Checkout"}
                  </button>
                ))}
              </div>
            ) : null}
          </div>
        ) : null
      }
    >
      {cart.length === 0 ? (
        <p className="vw-empty">Your cart is empty. Add products from the catalogue’s pages.</p>
      ) : (
        <ul className="vw-cart-lines">
          {cart.map((line) => (
            <Line key={line.productId} line={line} onQuantity={onQuantity} onRemove={onRemove} />
          ))}
        </ul>
      )}
    </Dialog>
  );
}
