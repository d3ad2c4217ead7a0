/**
 * A proposal's buttons beside Edit and Delete: Send (a draft: makes the public link, and mails
 * the client if asked), PDF, Copy public link (once sent), Convert to cart (opens the store's
 * checkout in a new tab).
 */
import { CopyOutlined, FilePdfOutlined, SendOutlined, ShoppingCartOutlined } from "@ant-design/icons";
import { App, Button, Checkbox, Input, Modal, Space } from "antd";
import { useState } from "react";
import { formatMoney } from "../../../../schemas/money";
import { getErrorMessage } from "../../../lib/errors";
import { blobErrorMessage } from "../../../resources/csv/download";
import type { ResourceRecord } from "../../../resources/types";
import { convertToCart, downloadPdf, publicLinkOf, sendProposal } from "./proposals-api";

interface Props {
  record: ResourceRecord;
  lineCount: number;
  onChanged: () => void;
}

export function ProposalActions({ record, lineCount, onChanged }: Props) {
  const { message, modal } = App.useApp();
  const [sending, setSending] = useState(false);
  const [mail, setMail] = useState(true);
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState<null | "send" | "pdf" | "cart">(null);
  const id = record.id;
  const status = String(record.status);
  const token = typeof record.share_token === "string" ? record.share_token : null;

  const send = async () => {
    setBusy("send");
    try {
      const sent = await sendProposal(id, { mail, message: note.trim() || undefined });
      setSending(false);
      message.success(mail ? "Proposal sent to the client" : "Proposal sent: its link is ready to share");
      void navigator.clipboard?.writeText(sent.link).catch(() => undefined);
      onChanged();
    } catch (e) {
      message.error(getErrorMessage(e));
    } finally {
      setBusy(null);
    }
  };

  const pdf = async () => {
    setBusy("pdf");
    try {
      await downloadPdf(id, `proposal-${String(record.number ?? id)}.pdf`);
    } catch (e) {
      message.error(await blobErrorMessage(e));
    } finally {
      setBusy(null);
    }
  };

  const cart = async () => {
    // Opened at once (a window opened after an await is blocked as a pop-up), then sent there.
    const tab = window.open("about:blank", "_blank");
    setBusy("cart");
    try {
      const made = await convertToCart(id);
      if (tab) tab.location.href = made.checkoutUrl;
      else window.location.assign(made.checkoutUrl);
      message.success(`Cart made in the store: ${formatMoney(made.total, made.currency)}`);
    } catch (e) {
      tab?.close();
      modal.error({ title: "The cart could not be made", content: getErrorMessage(e) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      {status === "draft" && (
        <Button type="primary" icon={<SendOutlined />} disabled={!lineCount} onClick={() => setSending(true)}>
          Send
        </Button>
      )}
      <Button icon={<FilePdfOutlined />} loading={busy === "pdf"} onClick={pdf}>
        PDF
      </Button>
      {token && (
        <Button
          icon={<CopyOutlined />}
          onClick={() =>
            void navigator.clipboard
              ?.writeText(publicLinkOf(token))
              .then(() => message.success("Public link copied"))
              .catch(() => message.info(publicLinkOf(token)))
          }
        >
          Copy public link
        </Button>
      )}
      {status !== "declined" && status !== "expired" && (
        <Button
          icon={<ShoppingCartOutlined />}
          loading={busy === "cart"}
          disabled={!lineCount}
          onClick={cart}
        >
          Convert to cart
        </Button>
      )}
      <Modal
        title="Send this proposal?"
        open={sending}
        okText="Send"
        confirmLoading={busy === "send"}
        onOk={send}
        onCancel={() => setSending(false)}
      >
        <Space direction="vertical" style={{ width: "100%" }}>
          <p>
            Once sent, the proposal can no longer be changed. Its public link lets the client accept or
            decline it.
          </p>
          <Checkbox checked={mail} onChange={(e) => setMail(e.target.checked)}>
            Mail the link to the client
          </Checkbox>
          {mail && (
            <Input.TextArea
              aria-label="Message to the client"
              placeholder="A few words to the client (optional)"
              maxLength={2000}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              autoSize={{ minRows: 2, maxRows: 6 }}
            />
          )}
        </Space>
      </Modal>
    </>
  );
}
