/**
 * The command menu (Ctrl+K, ⌘K on a Mac, or the header's Search button): finds records of every
 * resource and module the person may see (`GET /api/search`, as they type, debounced) and offers
 * commands ("New client", "Go to Proposals"). Keyboard first: arrows move, Enter opens, Escape
 * closes; with an empty box it shows the records opened recently on this device. Loaded the
 * first time it opens (src/layout/search-launcher.tsx).
 */
import { LoadingOutlined, SearchOutlined } from "@ant-design/icons";
import { useGetIdentity } from "@refinedev/core";
import { Button, Empty, Input, type InputRef, Modal, Typography, theme } from "antd";
import {
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import { useNavigate } from "react-router";
import { http } from "../../../providers/http";
import type { MeResponse } from "../../../schemas/auth";
import { SEARCH_MAX_LENGTH, type SearchResponse } from "../../../schemas/search";
import { ModuleIcon } from "../../components/module-icons";
import { RESOURCES } from "../../layout/resources";
import { getErrorMessage } from "../../lib/errors";
import { failureStatus, loadFailureKind, loadFailureReason } from "../../lib/load-failure";
import "./command-menu.css";
import {
  commandsFor,
  type MenuItem,
  matchingCommands,
  readRecent,
  recentItems,
  recordItems,
  rememberRecent,
} from "./menu-items";

/** Wait after the last keystroke before asking the server. */
export const SEARCH_DEBOUNCE_MS = 200;

type Found =
  | { state: "idle" }
  | { state: "loading"; q: string; previous?: SearchResponse }
  | { state: "done"; q: string; answer: SearchResponse }
  | { state: "failed"; q: string; message: string };

/** Records found for `q` (trimmed), asked once typing pauses; earlier answers are dropped. */
function useSearch(q: string, attempt: number): Found {
  const [found, setFound] = useState<Found>({ state: "idle" });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` asks again for the same text (Retry).
  useEffect(() => {
    if (!q) {
      setFound({ state: "idle" });
      return;
    }
    const controller = new AbortController();
    setFound((f) => ({ state: "loading", q, previous: f.state === "done" ? f.answer : undefined }));
    const timer = setTimeout(() => {
      http.get<SearchResponse>("/api/search", { params: { q }, signal: controller.signal }).then(
        (res) => setFound({ state: "done", q, answer: res.data }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const kind = loadFailureKind(error, navigator.onLine);
          const message = loadFailureReason(kind, failureStatus(error), getErrorMessage(error));
          setFound({ state: "failed", q, message });
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q, attempt]);
  return found;
}

/** Kept in the accessibility tree (it names the dialog), out of sight. */
const VISUALLY_HIDDEN: CSSProperties = {
  position: "absolute",
  width: 1,
  height: 1,
  margin: 0,
  padding: 0,
  overflow: "hidden",
  clipPath: "inset(50%)",
  whiteSpace: "nowrap",
};

/** Rows in runs of one group each, with their place in the whole list. */
function sectionsOf(items: readonly MenuItem[]) {
  const sections: Array<{ group: string; entries: Array<{ item: MenuItem; index: number }> }> = [];
  items.forEach((item, index) => {
    const last = sections.at(-1);
    if (last?.group === item.group) last.entries.push({ item, index });
    else sections.push({ group: item.group, entries: [{ item, index }] });
  });
  return sections;
}

function ItemIcon({ item }: { item: MenuItem }) {
  if (item.iconName) return <ModuleIcon name={item.iconName} />;
  return <>{item.icon ?? <SearchOutlined />}</>;
}

export default function CommandMenu({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { data: me } = useGetIdentity<MeResponse>();
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const [attempt, setAttempt] = useState(0);
  const input = useRef<InputRef>(null);
  const list = useRef<HTMLDivElement>(null);
  const listId = useId();
  const q = text.trim();
  const found = useSearch(q, attempt);
  const userId = me?.userID ?? "anonymous";

  const commands = useMemo(() => commandsFor(RESOURCES, me), [me]);
  // Read when the menu opens: another tab may have opened records meanwhile.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-read on each opening.
  const recent = useMemo(() => readRecent(localStorage, userId), [userId, open]);

  const items = useMemo((): MenuItem[] => {
    if (!q) return [...recentItems(recent), ...commands.filter((c) => c.group === "Go to")];
    const answer =
      found.state === "done" ? found.answer : found.state === "loading" ? found.previous : undefined;
    return [...matchingCommands(commands, q), ...recordItems(answer?.groups ?? [])];
  }, [q, found, recent, commands]);

  // A new list starts on its first row.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the rows change.
  useEffect(() => setActive(0), [items]);
  useEffect(() => {
    if (!open) {
      setText("");
      return;
    }
    // After the dialog's opening transition has mounted the box.
    const frame = requestAnimationFrame(() => input.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [open]);
  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active]);

  const choose = (item: MenuItem | undefined) => {
    if (!item) return;
    // A record opened goes first among the recent ones (a recent one as it was kept).
    const opened = item.key.startsWith("recent:")
      ? recent.find((r) => r.path === item.path)
      : item.key.startsWith("record:")
        ? {
            title: item.title,
            subtitle: item.subtitle,
            iconName: item.iconName,
            group: item.group,
            path: item.path,
          }
        : undefined;
    if (opened) rememberRecent(localStorage, userId, opened);
    onClose();
    navigate(item.path);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const last = items.length - 1;
    if (event.key === "ArrowDown") setActive((a) => (a >= last ? 0 : a + 1));
    else if (event.key === "ArrowUp") setActive((a) => (a <= 0 ? last : a - 1));
    else if (event.key === "Home" && event.ctrlKey) setActive(0);
    else if (event.key === "End" && event.ctrlKey) setActive(last);
    else if (event.key === "Enter" && !event.nativeEvent.isComposing) choose(items[active]);
    else return;
    event.preventDefault();
  };

  const searching = found.state === "loading";
  const settled = found.state === "done" && found.q === q;
  const optionId = (i: number) => `${listId}-option-${i}`;

  let status: ReactNode = null;
  if (q && found.state === "failed") {
    status = (
      <div className="atelier-cmdk-state" role="alert">
        <Typography.Text type="danger">The search could not be done. {found.message}</Typography.Text>
        <Button
          size="small"
          onClick={() => {
            setAttempt((a) => a + 1);
            // The button goes with the failure: the keys go back to the box.
            input.current?.focus();
          }}
        >
          Retry
        </Button>
      </div>
    );
  } else if (q && settled && !items.length) {
    status = (
      <Empty
        className="atelier-cmdk-empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <>
            <div>No matches for “{q}”</div>
            <Typography.Text type="secondary">Try fewer letters, or another word.</Typography.Text>
          </>
        }
      />
    );
  } else if (q && searching && !items.length) {
    status = (
      <div className="atelier-cmdk-state">
        <Typography.Text type="secondary">Searching…</Typography.Text>
      </div>
    );
  } else if (!q && !items.length) {
    status = (
      <div className="atelier-cmdk-state">
        <Typography.Text type="secondary">Type to search records and commands.</Typography.Text>
      </div>
    );
  }

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      closable={false}
      width={640}
      style={{ top: 72 }}
      // The dialog's name, for assistive technology only: the search box says the rest.
      title="Search and commands"
      styles={{ content: { padding: 0, overflow: "hidden" }, header: VISUALLY_HIDDEN }}
      // Once the opening animation is over too: the dialog focuses itself then, unless focus is inside.
      afterOpenChange={(opened) => opened && input.current?.focus()}
      destroyOnHidden
    >
      <div className="atelier-cmdk" data-testid="command-menu">
        <Input
          ref={input}
          size="large"
          variant="borderless"
          value={text}
          maxLength={SEARCH_MAX_LENGTH}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Search records, or type a command…"
          prefix={<SearchOutlined aria-hidden style={{ color: token.colorTextTertiary }} />}
          suffix={
            searching ? <LoadingOutlined aria-label="Searching" /> : <kbd className="atelier-kbd">Esc</kbd>
          }
          role="combobox"
          aria-label="Search records and commands"
          aria-expanded
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={items.length ? optionId(active) : undefined}
          className="atelier-cmdk-input"
        />
        <div
          ref={list}
          className="atelier-cmdk-list"
          style={{ borderTop: `1px solid ${token.colorBorderSecondary}` }}
        >
          <div id={listId} role="listbox" aria-label="Results">
            {sectionsOf(items).map((section) => (
              // biome-ignore lint/a11y/useSemanticElements: a group of options in a listbox (ARIA), not a form's fieldset.
              <div key={section.group} role="group" aria-labelledby={`${listId}-${section.group}`}>
                <div
                  id={`${listId}-${section.group}`}
                  className="atelier-cmdk-group"
                  style={{ color: token.colorTextTertiary }}
                >
                  {section.group}
                </div>
                {section.entries.map(({ item, index: i }) => (
                  // biome-ignore lint/a11y/useFocusableInteractive: the combobox keeps the focus and points at the option (aria-activedescendant).
                  // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the search box's (arrows, Enter).
                  <div
                    key={item.key}
                    id={optionId(i)}
                    role="option"
                    aria-selected={i === active}
                    data-index={i}
                    className="atelier-cmdk-option"
                    style={i === active ? { background: token.controlItemBgActive } : undefined}
                    onMouseMove={() => i !== active && setActive(i)}
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => choose(item)}
                  >
                    <span
                      className="atelier-cmdk-icon"
                      aria-hidden
                      style={{ color: token.colorTextSecondary }}
                    >
                      <ItemIcon item={item} />
                    </span>
                    <span className="atelier-cmdk-text">
                      <span className="atelier-cmdk-title">{item.title}</span>
                      {item.subtitle && (
                        <span className="atelier-cmdk-subtitle" style={{ color: token.colorTextTertiary }}>
                          {item.subtitle}
                        </span>
                      )}
                    </span>
                    {item.hint && (
                      <span className="atelier-cmdk-hint" style={{ color: token.colorTextTertiary }}>
                        {item.hint}
                      </span>
                    )}
                    <kbd
                      className="atelier-kbd"
                      aria-hidden
                      style={{ visibility: i === active ? "visible" : "hidden" }}
                    >
                      Enter
                    </kbd>
                  </div>
                ))}
              </div>
            ))}
          </div>
          {status}
        </div>
        <div
          className="atelier-cmdk-footer"
          style={{ borderTop: `1px solid ${token.colorBorderSecondary}`, color: token.colorTextTertiary }}
        >
          <span>
            <kbd className="atelier-kbd">↑</kbd> <kbd className="atelier-kbd">↓</kbd> to move
          </span>
          <span>
            <kbd className="atelier-kbd">Enter</kbd> to open
          </span>
          <span>
            <kbd className="atelier-kbd">Esc</kbd> to close
          </span>
        </div>
      </div>
    </Modal>
  );
}
