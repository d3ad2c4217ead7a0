/**
 * The header's bell (issue 16): a native button with the unread count, kept live over the
 * socket. It is on every screen, so it carries nothing else: the panel with the list is
 * loaded the first time it opens (src/pages/notifications), and the glyph is drawn in CSS.
 */
import { Suspense, useEffect, useRef, useState } from "react";
import { http } from "../../providers/http";
import { watchAccount, watchNotifications } from "../../providers/live-provider";
import { lazyScreen } from "../components/lazy-screen";

const NotificationPanel = lazyScreen(() => import("../pages/notifications/notification-panel"));

/** The badge's text: the count, or "99+" past 99. */
export const badgeText = (unread: number) => (unread > 99 ? "99+" : String(unread));

export function NotificationBell() {
  const [unread, setUnread] = useState(0);
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  // Counted again on every live message (new, read or deleted in another tab) and whenever
  // the grants change or the socket reconnects (what is visible may have changed meanwhile).
  useEffect(() => {
    const count = () =>
      http.get<{ unread: number }>("/api/notifications/unread-count").then(
        (res) => setUnread(res.data.unread),
        () => {}, // offline: the badge keeps what it knew
      );
    void count();
    const stops = [watchNotifications(count), watchAccount(count)];
    return () => {
      for (const stop of stops) stop();
    };
  }, []);

  return (
    <div className="atelier-bell" ref={box}>
      <button
        type="button"
        className="atelier-bell-button"
        aria-label={unread ? `Notifications, ${unread} unread` : "Notifications"}
        aria-expanded={open}
        aria-haspopup="dialog"
        data-testid="notification-bell"
        onClick={() => setOpen(!open)}
      >
        {unread > 0 && (
          <span className="atelier-bell-count" aria-hidden>
            {badgeText(unread)}
          </span>
        )}
      </button>
      {open && (
        <Suspense fallback={null}>
          <NotificationPanel container={box} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
