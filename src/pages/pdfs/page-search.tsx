import { App, Button, Card, Input, List, Typography } from "antd";
import { useState } from "react";
import { getErrorMessage } from "../../lib/errors";
import { searchPages } from "./pdf-api";

export interface SearchHit {
  page: number;
  snippet: string;
}

/** The search box of the catalogue's text (in the page header); answers the pages found. */
export function PageSearchInput(props: { id: string; onResults: (hits: SearchHit[] | null) => void }) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  return (
    <Input.Search
      allowClear
      placeholder="Search the catalogue"
      aria-label="Search the catalogue"
      loading={busy}
      style={{ width: 240 }}
      onSearch={async (q) => {
        const words = q.trim();
        if (!words) return props.onResults(null);
        setBusy(true);
        try {
          props.onResults(await searchPages(props.id, words));
        } catch (e) {
          message.error(`The search failed: ${getErrorMessage(e)}`);
        } finally {
          setBusy(false);
        }
      }}
    />
  );
}

/** The pages a search found, each a way to go there. */
export function SearchResults(props: {
  hits: SearchHit[];
  onGo: (page: number) => void;
  onClose: () => void;
}) {
  const { hits } = props;
  return (
    <Card
      size="small"
      title={`${hits.length} page${hits.length === 1 ? "" : "s"} found`}
      extra={
        <Button size="small" type="text" onClick={props.onClose}>
          Close
        </Button>
      }
      styles={{ body: { maxHeight: 180, overflowY: "auto" } }}
    >
      {hits.length ? (
        <List
          size="small"
          dataSource={hits}
          renderItem={(r) => (
            <List.Item>
              <Button type="link" size="small" onClick={() => props.onGo(r.page)}>
                Page {r.page}
              </Button>
              <Typography.Text type="secondary">{r.snippet}</Typography.Text>
            </List.Item>
          )}
        />
      ) : (
        <Typography.Text type="secondary">No page has these words.</Typography.Text>
      )}
    </Card>
  );
}
