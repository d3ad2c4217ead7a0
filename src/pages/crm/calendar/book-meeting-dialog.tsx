/**
 * The "Book meeting" dialog of a client page: title, the day and time on a clock in the chosen
 * time zone (the browser's by default), a duration, where, and a note. Booking puts the event in
 * the user's calendar and mails the client an invitation; without a connected calendar the
 * dialog says where to connect one instead.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, DatePicker, Form, Input, Modal, Select, Skeleton } from "antd";
import type { Dayjs } from "dayjs";
import dayjs from "dayjs";
import { useState } from "react";
import { Link } from "react-router";
import { getErrorMessage, getFieldErrors } from "../../../lib/errors";
import { browserTimeZone, timeZoneOptions, wallTimeText } from "../../../lib/meeting-time";
import { DAY_TIME_INPUT_FORMATS, TIME_FORMAT } from "../../../resources/form/date-values";
import { crmKeys } from "../crm-api";
import { bookMeeting, calendarKeys, getConnection } from "./calendar-api";

interface Values {
  title: string;
  start: Dayjs;
  durationMinutes: number;
  timeZone: string;
  location?: string;
  description?: string;
}

const DURATIONS = [15, 30, 45, 60, 90, 120].map((m) => ({
  value: m,
  label: m < 60 ? `${m} minutes` : m === 60 ? "1 hour" : `${m / 60} hours`,
}));

/** Where the server's field names land in this form. */
const FIELD_OF: Readonly<Record<string, keyof Values>> = {
  title: "title",
  startsAt: "start",
  endsAt: "durationMinutes",
  durationMinutes: "durationMinutes",
  timeZone: "timeZone",
  location: "location",
  description: "description",
};

/** The next whole hour from now: a start nobody has to correct first. */
const nextHour = () => dayjs().add(1, "hour").startOf("hour");

export default function BookMeetingDialog({
  clientId,
  clientName,
  email,
  onClose,
}: {
  clientId: string;
  clientName: string;
  email: string;
  onClose: () => void;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const connection = useQuery({ queryKey: calendarKeys.connection, queryFn: getConnection });
  const [zones] = useState(() => timeZoneOptions().map((z) => ({ value: z, label: z.replace(/_/g, " ") })));
  const connected = connection.data && connection.data.status !== "none";

  const onFinish = async (values: Values) => {
    setSubmitting(true);
    setError(null);
    try {
      const start = values.start;
      await bookMeeting({
        clientId,
        title: values.title.trim(),
        startsAt: wallTimeText({
          year: start.year(),
          month: start.month() + 1,
          day: start.date(),
          hour: start.hour(),
          minute: start.minute(),
        }),
        durationMinutes: values.durationMinutes,
        timeZone: values.timeZone,
        ...(values.location?.trim() ? { location: values.location.trim() } : {}),
        ...(values.description?.trim() ? { description: values.description.trim() } : {}),
      });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: calendarKeys.upcoming(clientId) }),
        queryClient.invalidateQueries({ queryKey: crmKeys.timelineOf(clientId) }),
      ]);
      message.success(`Meeting booked: the invitation is on its way to ${email}`);
      onClose();
    } catch (err) {
      const fields = getFieldErrors(err).filter((f) => FIELD_OF[f.field]);
      if (fields.length)
        form.setFields(fields.map((f) => ({ name: FIELD_OF[f.field], errors: [f.message] })));
      else setError(getErrorMessage(err));
      // A calendar that refused us may now show as failing.
      void queryClient.invalidateQueries({ queryKey: calendarKeys.connection });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      open
      title={`Book a meeting with ${clientName}`}
      okText="Book and invite"
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ loading: submitting, disabled: !connected }}
      destroyOnHidden
      width={560}
    >
      {connection.isPending ? (
        <Skeleton active paragraph={{ rows: 5 }} />
      ) : !connected ? (
        <Alert
          type="info"
          showIcon
          message="Connect your calendar first"
          description={
            <>
              Meetings go into your own calendar. <Link to="/crm/calendar">Connect it in CRM › Calendar</Link>
              , then book again.
            </>
          }
        />
      ) : (
        <Form<Values>
          form={form}
          name="book-meeting"
          layout="vertical"
          requiredMark={false}
          disabled={submitting}
          onFinish={onFinish}
          initialValues={{
            title: `Meeting with ${clientName}`,
            start: nextHour(),
            durationMinutes: 30,
            timeZone: browserTimeZone(),
          }}
        >
          {connection.data?.status === "failing" && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 16 }}
              message="Your calendar connection needs attention"
              description={
                <>
                  {connection.data.lastError} <Link to="/crm/calendar">Reconnect</Link>
                </>
              }
            />
          )}
          {error && <Alert type="error" showIcon role="alert" message={error} style={{ marginBottom: 16 }} />}
          <Form.Item
            label="Title"
            name="title"
            rules={[{ required: true, whitespace: true, message: "Enter a title" }]}
          >
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item
            label="Starts"
            name="start"
            rules={[{ required: true, message: "Choose the day and time" }]}
            extra="On a clock in the time zone below."
          >
            <DatePicker
              showTime={{ format: TIME_FORMAT, minuteStep: 5 }}
              format={DAY_TIME_INPUT_FORMATS}
              placeholder="DD-MM-YYYY HH:mm"
              disabledDate={(d) => d.isBefore(dayjs().startOf("day"))}
              style={{ width: "100%" }}
            />
          </Form.Item>
          <Form.Item label="Duration" name="durationMinutes">
            <Select options={DURATIONS} />
          </Form.Item>
          <Form.Item
            label="Time zone"
            name="timeZone"
            rules={[{ required: true, message: "Choose a time zone" }]}
          >
            <Select showSearch options={zones} optionFilterProp="label" />
          </Form.Item>
          <Form.Item label="Location" name="location">
            <Input maxLength={300} placeholder="An address, a room, or a video call link" />
          </Form.Item>
          <Form.Item label="Note for the client" name="description">
            <Input.TextArea maxLength={5000} autoSize={{ minRows: 2, maxRows: 6 }} />
          </Form.Item>
          <div className="ant-form-item-extra">
            The event goes into your calendar "{connection.data?.calendarName}", and {email} gets an
            invitation to accept.
          </div>
        </Form>
      )}
    </Modal>
  );
}
