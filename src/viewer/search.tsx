/**
 * Full-text search of the catalogue: the box in the top bar, and the panel of results with
 * their snippets (hits highlighted); a result opens its page.
 */
import { useState } from "react";
import type { SearchHit } from "./api";
import { Icon } from "./icons";
import { snippetParts } from "./navigation";

export interface SearchState {
  q: string;
  status: "loading" | "done" | "error";
  hits: SearchHit[];
}

export function SearchBox({ onSearch }: { onSearch(q: string): void }) {
  const [q, setQ] = useState("");
  return (
    <search className="vw-search-landmark">
      <form
        className="vw-search"
        onSubmit={(event) => {
          event.preventDefault();
          if (q.trim()) onSearch(q);
        }}
      >
        <input
          type="search"
          aria-label="Search the catalogue"
          placeholder="Search the catalogue"
          value={q}
          maxLength={200}
          onChange={(event) => setQ(event.target.value)}
          enterKeyHint="search"
        />
        <button type="submit" className="vw-icon-btn" aria-label="Search">
          <Icon name="search" />
        </button>
      </form>
    </search>
  );
}

export interface SearchResultsProps {
  search: SearchState;
  onOpen(page: number): void;
  onClose(): void;
}

export function SearchResults({ search, onOpen, onClose }: SearchResultsProps) {
  const count = search.hits.length;
  return (
    <aside
      className="vw-results"
      aria-label="Search results"
      onKeyDown={(event) => {
        if (event.key === "Escape") onClose();
      }}
    >
      <header className="vw-results-head">
        <p aria-live="polite">
          {search.status === "loading"
            ? "Searching…"
            : search.status === "error"
              ? "The search failed. Try again."
              : count === 0
                ? `No pages found for “${search.q}”`
                : `${count} ${count === 1 ? "page" : "pages"} found for “${search.q}”`}
        </p>
        <button type="button" className="vw-icon-btn" aria-label="Close search results" onClick={onClose}>
          <Icon name="close" />
        </button>
      </header>
      {count > 0 ? (
        <ol className="vw-results-list">
          {search.hits.map((hit) => (
            <li key={hit.page}>
              <button type="button" className="vw-result" onClick={() => onOpen(hit.page)}>
                <span className="vw-result-page">Page {hit.page}</span>{" "}
                <span className="vw-result-snippet">
                  {snippetParts(hit.snippet).map((part, i) =>
                    part.hit ? (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a snippet never move
                      <mark key={i}>{part.text}</mark>
                    ) : (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a snippet never move
                      <span key={i}>{part.text}</span>
                    ),
                  )}
                </span>
              </button>
            </li>
          ))}
        </ol>
      ) : null}
    </aside>
  );
}
