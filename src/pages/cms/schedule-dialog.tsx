/**
 * When an entry publishes and unpublishes by itself: two date-times in the reader's local time
 * (`DD-MM-YYYY HH:mm`), each clearable. The server's durable queue runs them, after a restart too.
 */
import { App, DatePicker, Form, Modal } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useEffect, useState } from "react";
import { getErrorMessage } from "../../lib/errors";
import { scheduleEntry } from "./cms-api";

const FORMAT = "DD-MM-YYYY HH:mm";

export function ScheduleDialog({
  open,
  type,
  id,
  publishAt,
  unpublishAt,
  onClose,
  onDone,
}: {
  open: boolean;
  type: string;
  id: string;
  publishAt: string | null;
  unpublishAt: string | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ publishAt: Dayjs | null; unpublishAt: Dayjs | null }>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (open)
      form.setFieldsValue({
        publishAt: publishAt ? dayjs(publishAt) : null,
        unpublishAt: unpublishAt ? dayjs(unpublishAt) : null,
      });
  }, [open, publishAt, unpublishAt, form]);
  const past = (d: Dayjs) => d.isBefore(dayjs().startOf("day"));
  return (
    <Modal
      title="Schedule"
      open={open}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="Save schedule"
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={async (v) => {
          setSaving(true);
          try {
            await scheduleEntry(type, id, {
              publishAt: v.publishAt ? v.publishAt.toISOString() : null,
              unpublishAt: v.unpublishAt ? v.unpublishAt.toISOString() : null,
            });
            message.success("Schedule saved");
            onDone();
          } catch (error) {
            message.error(getErrorMessage(error));
          } finally {
            setSaving(false);
          }
        }}
      >
        <Form.Item name="publishAt" label="Publish at" extra="The draft as it is then is published">
          <DatePicker
            showTime={{ format: "HH:mm" }}
            format={FORMAT}
            disabledDate={past}
            style={{ width: "100%" }}
          />
        </Form.Item>
        <Form.Item name="unpublishAt" label="Unpublish at">
          <DatePicker
            showTime={{ format: "HH:mm" }}
            format={FORMAT}
            disabledDate={past}
            style={{ width: "100%" }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
