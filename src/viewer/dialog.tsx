/**
 * A modal dialog on the native `<dialog>`: role dialog named by its title, focus kept inside,
 * Escape and a click on the backdrop close it. `variant="drawer"` slides in from the right.
 */
import { type ReactNode, useEffect, useId, useRef } from "react";
import { Icon } from "./icons";

export interface DialogProps {
  title: string;
  onClose(): void;
  children: ReactNode;
  variant?: "modal" | "wide" | "drawer";
  footer?: ReactNode;
}

export function Dialog({ title, onClose, children, variant = "modal", footer }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    // A click on the backdrop lands on the dialog element itself (the frame covers the rest);
    // a text selection dragged out of the frame does not count.
    let downOnBackdrop = false;
    const onDown = (event: PointerEvent) => {
      downOnBackdrop = event.target === dialog;
    };
    const onClick = (event: MouseEvent) => {
      if (downOnBackdrop && event.target === dialog) close.current();
    };
    dialog.addEventListener("pointerdown", onDown);
    dialog.addEventListener("click", onClick);
    return () => {
      dialog.removeEventListener("pointerdown", onDown);
      dialog.removeEventListener("click", onClick);
      dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={`vw-dialog vw-dialog-${variant}`}
      aria-labelledby={titleId}
      // Escape closes the native dialog itself; its close event tells the viewer.
      onClose={onClose}
    >
      <div className="vw-dialog-frame">
        <header className="vw-dialog-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="vw-icon-btn" aria-label="Close" onClick={onClose}>
            <Icon name="close" />
          </button>
        </header>
        <div className="vw-dialog-body">{children}</div>
        {footer ? <footer className="vw-dialog-foot">{footer}</footer> : null}
      </div>
    </dialog>
  );
}
