/**
 * Sequences on a client's page: "Enrol in sequence" among the header's actions, and a card of
 * the sequences they are in now, each with its current step, when the next one runs, and Stop.
 */
import { NodeIndexOutlined, StopOutlined } from "@ant-design/icons";
import { useSubscription } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Popconfirm, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import type { Enrolment } from "../../../../schemas/crm-sequence-steps";
import { getErrorMessage } from "../../../lib/errors";
import { EnrolInSequenceDialog } from "./enrol-dialogs";
import { NextStep } from "./enrolments-table";
import { enrolmentPlace } from "./sequence-steps";
import { getClientSequences, sequenceKeys, stopEnrolment } from "./sequences-api";
import "./sequences.css";

export function EnrolInSequenceButton({ clientId, clientName }: { clientId: string; clientName: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<NodeIndexOutlined />} onClick={() => setOpen(true)}>
        Enrol in sequence
      </Button>
      <EnrolInSequenceDialog
        open={open}
        onClose={() => setOpen(false)}
        clientIds={[clientId]}
        who={clientName}
      />
    </>
  );
}

export function ClientSequences({ clientId }: { clientId: string }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: sequenceKeys.ofClient(clientId),
    queryFn: () => getClientSequences(clientId),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: sequenceKeys.ofClient(clientId) });
  // A step that runs writes on the timeline: the card follows it (its step and next time move).
  useSubscription({
    channel: "resources/client-timeline",
    types: ["created"],
    onLiveEvent: (event) => {
      if (((event.payload as { ids?: string[] }).ids ?? []).includes(clientId)) refresh();
    },
  });
  const stop = async (e: Enrolment) => {
    try {
      await stopEnrolment(e.sequenceId, e.id);
      message.success(`Taken out of ${e.sequenceName}`);
      refresh();
      void queryClient.invalidateQueries({ queryKey: ["crm", "timeline", clientId] });
    } catch (error) {
      message.error(getErrorMessage(error));
    }
  };
  const rows = query.data?.data ?? [];
  return (
    <Card title="Sequences" size="small" loading={query.isPending}>
      {query.isError ? (
        <Typography.Text type="danger">
          The sequences could not be loaded: {getErrorMessage(query.error)}
        </Typography.Text>
      ) : rows.length === 0 ? (
        <Typography.Text type="secondary">In no sequence now</Typography.Text>
      ) : (
        <ul className="seq-client-list" aria-label="Active sequences">
          {rows.map((e) => (
            <li key={e.id} data-testid="client-sequence">
              <span className="seq-client-meta">
                <Link to={`/crm/sequences/show/${e.sequenceId}`}>{e.sequenceName}</Link>
                <Typography.Text type="secondary">{enrolmentPlace(e)}</Typography.Text>
                <span>
                  <Typography.Text type="secondary">Next: </Typography.Text>
                  <NextStep enrolment={e} />
                </span>
              </span>
              <Popconfirm
                title={`Take them out of ${e.sequenceName}?`}
                description="Their next steps will not run."
                okText="Stop"
                okButtonProps={{ danger: true }}
                cancelText="Keep"
                onConfirm={() => stop(e)}
              >
                <Button size="small" danger icon={<StopOutlined />} aria-label={`Stop ${e.sequenceName}`}>
                  Stop
                </Button>
              </Popconfirm>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
