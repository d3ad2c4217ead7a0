/**
 * The bell's panel (loaded the first time the bell opens): the user's recent notifications,
 * newest first, unread ones marked. A click marks one read and opens what it is about;
 * "Mark all as read" clears the badge. It follows live messages (a new one, one read in
 * another tab) while open. Closes on Escape, on a click outside, and after opening a link.
 */
import "./notification-panel.css";
import { CloseOutlined } from "@ant-design/icons";
import { App, Button, Spin, Typography } from "antd";
import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { watchNotifications } from "../../../providers/live-provider";
import type { NotificationList, NotificationRecord } from "../../../schemas/notifications";
import { getErrorMessage } from "../../lib/errors";
import {
  deleteNotification,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
} from "./notifications-api";
import { timeAgo } from "./time-ago";

/** Notifications shown at first, and added by each "Show more" (up to the API's 100). */
const PAGE = 20;
const MOST = 100;

export interface NotificationPanelProps {
  /** The bell and its panel: a click inside it is not a click outside. */
  container: RefObject<HTMLElement | null>;
  /** Closes the panel. */
  onClose: () => void;
}

export default function NotificationPanel({ container, onClose }: NotificationPanelProps) {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [limit, setLimit] = useState(PAGE);
  const [list, setList] = useState<NotificationList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // The bell passes a new function at each of its renders (the count changes): read the latest.
  const close = useRef(onClose);
  close.current = onClose;

  const load = useCallback(async () => {
    try {
      setList(await listNotifications(limit));
      setError(null);
    } catch (err) {
      setError(getErrorMessage(err));
    }
  }, [limit]);

  useEffect(() => {
    void load();
    return watchNotifications(() => void load());
  }, [load]);

  // Keyboard users land in the panel; Escape (back to the bell) and a click elsewhere close it.
  useEffect(() => {
    heading.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      container.current?.querySelector("button")?.focus();
      close.current();
    };
    const onPointer = (e: PointerEvent) => {
      if (!container.current?.contains(e.target as Node)) close.current();
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [container]);

  const act = async (action: () => Promise<unknown>) => {
    try {
      await action();
    } catch (err) {
      message.error(getErrorMessage(err));
    }
    await load();
  };

  const open = async (n: NotificationRecord) => {
    if (!n.read_at) await act(() => markNotificationRead(n.id));
    if (n.link) {
      close.current();
      navigate(n.link);
    }
  };

  const items = list?.data ?? [];
  return (
    <section className="atelier-notifications" role="dialog" aria-label="Notifications">
      <header className="atelier-notifications-head">
        <h2 ref={heading} tabIndex={-1}>
          Notifications
        </h2>
        <Button
          type="link"
          size="small"
          disabled={!list?.unread}
          onClick={() => void act(markAllNotificationsRead)}
        >
          Mark all as read
        </Button>
      </header>
      {error && !list ? (
        <div className="atelier-notifications-state" role="alert">
          <Typography.Text type="danger">{error}</Typography.Text>
          <Button size="small" onClick={() => void load()}>
            Try again
          </Button>
        </div>
      ) : !list ? (
        <div className="atelier-notifications-state">
          <Spin aria-label="Loading notifications" />
        </div>
      ) : items.length === 0 ? (
        <div className="atelier-notifications-state">
          <Typography.Text type="secondary">No notifications</Typography.Text>
        </div>
      ) : (
        <ul className="atelier-notifications-list">
          {items.map((n) => (
            <li key={n.id} className={n.read_at ? undefined : "atelier-notification-unread"}>
              <button type="button" className="atelier-notification" onClick={() => void open(n)}>
                <span className="atelier-notification-title">
                  {!n.read_at && <span className="atelier-sr-only">Unread: </span>}
                  {n.title}
                </span>
                {n.body && <span className="atelier-notification-body">{n.body}</span>}
                <time dateTime={n.created_at}>{timeAgo(n.created_at)}</time>
              </button>
              <Button
                type="text"
                size="small"
                icon={<CloseOutlined />}
                aria-label={`Remove "${n.title}"`}
                onClick={() => void act(() => deleteNotification(n.id))}
              />
            </li>
          ))}
        </ul>
      )}
      <footer className="atelier-notifications-foot">
        {list && list.total > items.length && limit < MOST ? (
          <Button type="link" size="small" onClick={() => setLimit(Math.min(limit + PAGE, MOST))}>
            Show more
          </Button>
        ) : (
          <span />
        )}
        <Button
          type="link"
          size="small"
          onClick={() => {
            close.current();
            navigate("/account#notifications");
          }}
        >
          Mail settings
        </Button>
      </footer>
    </section>
  );
}
