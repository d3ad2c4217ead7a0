/**
 * A form's Partial answers tab: what visitors answered and have not sent (kept as they went,
 * page by page), apart from the submissions: when they last saved, the page they were on, their
 * answers so far and where they came from; export as CSV, delete one (asked first). Each goes
 * by itself once the form's resume window has passed. Lazy-loaded by the form's page.
 */
import { DeleteOutlined, DownloadOutlined } from "@ant-design/icons";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Empty, Flex, Popconfirm, Table, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { answerText } from "../../../schemas/form-answers";
import { answers as answerable, type FormFieldDef } from "../../../schemas/form-definition";
import { LoadError } from "../../components/load-error";
import { getErrorMessage } from "../../lib/errors";
import { loadFailed } from "../../lib/load-failure";
import { deletePartial, downloadPartials, listPartials, type PartialAnswer } from "./partials-api";

const PAGE_SIZE = 10;

/** The answers so far in a line: "Name: Ada · Email: ada@example.com". */
function summaryOf(fields: readonly FormFieldDef[], row: PartialAnswer) {
  const given = fields.filter((f) => answerable(f) && Object.hasOwn(row.answers, f.id));
  const text = given.map((f) => `${f.label}: ${answerText(f, row.answers[f.id])}`).join(" · ");
  return text || "—";
}

export function FormPartials({ formId, fields }: { formId: string; fields: readonly FormFieldDef[] }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const key = ["forms", "partials", formId, page] as const;
  const list = useQuery({
    queryKey: key,
    queryFn: () => listPartials(formId, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });

  const remove = async (id: string) => {
    try {
      await deletePartial(formId, id);
      message.success("Partial answer deleted");
      await queryClient.invalidateQueries({ queryKey: ["forms", "partials", formId] });
    } catch (error) {
      message.error(getErrorMessage(error));
    }
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadPartials(formId);
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setExporting(false);
    }
  };

  if (loadFailed(list))
    return <LoadError what="partial answers" error={list.error} onRetry={() => list.refetch()} compact />;
  const rows = list.data?.data ?? [];
  return (
    <Flex vertical gap={12}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Text type="secondary">
          Answers visitors started and have not sent yet. They can come back and go on; once sent, the answer
          moves to Submissions.
        </Typography.Text>
        <Button
          icon={<DownloadOutlined aria-hidden />}
          onClick={exportCsv}
          loading={exporting}
          disabled={!rows.length}
        >
          Export CSV
        </Button>
      </Flex>
      <Table<PartialAnswer>
        size="middle"
        rowKey="id"
        loading={list.isLoading}
        dataSource={rows}
        data-testid="partials-table"
        locale={{
          emptyText: (
            <Empty description="No partial answers — answers visitors start and leave unsent show here" />
          ),
        }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
          hideOnSinglePage: true,
        }}
        columns={[
          {
            title: "Last saved",
            dataIndex: "updated_at",
            width: 170,
            render: (at: string) => dayjs(at).format("DD-MM-YYYY HH:mm"),
          },
          {
            title: "Page",
            dataIndex: "page",
            width: 100,
            render: (p: number, row) => `${p} of ${row.pages}`,
          },
          {
            title: "Answers so far",
            key: "answers",
            ellipsis: true,
            render: (_, row) => summaryOf(fields, row),
          },
          {
            title: "Source",
            dataIndex: "utm_source",
            width: 140,
            render: (source: string) => source || <Typography.Text type="secondary">(none)</Typography.Text>,
          },
          {
            title: "Kept until",
            dataIndex: "expires_at",
            width: 130,
            render: (at: string) => dayjs(at).format("DD-MM-YYYY"),
          },
          {
            title: <span className="atelier-sr-only">Actions</span>,
            key: "actions",
            width: 56,
            render: (_, row) => (
              <Popconfirm
                title="Delete this partial answer?"
                description="The visitor can no longer continue where they left."
                okText="Delete"
                okButtonProps={{ danger: true }}
                cancelText="Keep"
                onConfirm={() => remove(row.id)}
              >
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined aria-hidden />}
                  aria-label="Delete partial answer"
                />
              </Popconfirm>
            ),
          },
        ]}
      />
    </Flex>
  );
}

export default FormPartials;
