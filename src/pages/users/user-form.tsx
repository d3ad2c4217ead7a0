import {
  App,
  Button,
  Checkbox,
  Col,
  Form,
  type FormProps,
  Input,
  Radio,
  Row,
  Space,
  Switch,
  Typography,
} from "antd";
import { MODULES } from "../../../resources/modules";
import { PASSWORD_MIN_LENGTH, ROLE_LABELS, ROLES, type UserWrite } from "../../../schemas/auth";
import { FormSelect } from "../../components/form-select";

export type UserFormMode = "create" | "edit";

/** How a new user gets a password: an invitation mail, or one the admin types. */
export type PasswordMode = "invite" | "password";

/**
 * The form holds the API body's fields, plus (create only) how the password is given;
 * `toUserWrite` cleans them before sending.
 */
export type UserFormValues = UserWrite & { passwordMode?: PasswordMode };

const ROLE_OPTIONS = [ROLES.admin, ROLES.user].map((value) => ({ value, label: ROLE_LABELS[value] }));
const ALL_MODULE_IDS = MODULES.map((m) => m.moduleID);

export const USER_FORM_DEFAULTS: Partial<UserFormValues> = {
  role: ROLES.user,
  plan_type: "standard",
  active: true,
  modules: [],
  passwordMode: "password",
};

/**
 * The API body: trimmed text, and no empty optional fields (an empty password on edit
 * means "keep the current one"). An invitation sends `invite: true` and no password.
 */
export function toUserWrite(values: UserFormValues): UserWrite {
  const body: UserWrite = {
    first_name: values.first_name.trim(),
    last_name: values.last_name.trim(),
    email: values.email.trim(),
    role: values.role,
    active: values.active ?? true,
    modules: values.modules ?? [],
  };
  if (values.passwordMode === "invite") body.invite = true;
  else if (values.password) body.password = values.password;
  const plan = values.plan_type?.trim();
  if (plan) body.plan_type = plan;
  return body;
}

interface UserFormProps {
  mode: UserFormMode;
  formProps: FormProps<UserFormValues>;
}

/** Create and edit share this form; server field errors land on the fields (Refine's useForm). */
export function UserForm({ mode, formProps }: UserFormProps) {
  const form = formProps.form;
  const { modal } = App.useApp();
  const passwordMode = Form.useWatch("passwordMode", form) ?? "password";
  const inviting = mode === "create" && passwordMode === "invite";
  const passwordRules = [
    ...(mode === "create" ? [{ required: true, message: "Enter a password" }] : []),
    { min: PASSWORD_MIN_LENGTH, message: `Use at least ${PASSWORD_MIN_LENGTH} characters` },
  ];

  return (
    <Form<UserFormValues>
      {...formProps}
      layout="vertical"
      initialValues={{ ...USER_FORM_DEFAULTS, ...formProps.initialValues }}
      onFinish={(values) => {
        const save = () => formProps.onFinish?.(toUserWrite(values));
        // Switching an active user off signs them out everywhere: asked once more, by name.
        const disabling =
          mode === "edit" && formProps.initialValues?.active === true && values.active === false;
        if (!disabling) return save();
        modal.confirm({
          title: `Disable ${values.first_name.trim()} ${values.last_name.trim()}?`,
          content: "They are signed out on every device and cannot sign in until enabled again.",
          okText: "Yes, disable",
          okButtonProps: { danger: true },
          cancelText: "Cancel",
          onOk: save,
        });
      }}
      style={{ maxWidth: 880 }}
    >
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            label="First name"
            name="first_name"
            rules={[{ required: true, whitespace: true, message: "Enter a first name" }]}
          >
            <Input autoFocus autoComplete="off" maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            label="Last name"
            name="last_name"
            rules={[{ required: true, whitespace: true, message: "Enter a last name" }]}
          >
            <Input autoComplete="off" maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            label="Email"
            name="email"
            rules={[
              { required: true, message: "Enter an email" },
              { type: "email", message: "Enter a valid email address" },
            ]}
          >
            <Input type="email" autoComplete="off" maxLength={254} />
          </Form.Item>
        </Col>
        {mode === "create" && (
          <Col xs={24}>
            <Form.Item label="Password setup" name="passwordMode" style={{ marginBottom: inviting ? 8 : 12 }}>
              <Radio.Group
                options={[
                  { value: "password", label: "Set a password" },
                  { value: "invite", label: "Send an invitation email" },
                ]}
              />
            </Form.Item>
          </Col>
        )}
        {inviting ? (
          <Col xs={24}>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 24 }}>
              The user receives a link to choose their own password and cannot sign in until they have. You
              can send the invitation again from their page while it is pending.
            </Typography.Paragraph>
          </Col>
        ) : (
          <Col xs={24} md={12}>
            <Form.Item
              label="Password"
              name="password"
              rules={passwordRules}
              extra={
                mode === "edit"
                  ? "Leave empty to keep the current password. Common passwords are refused."
                  : `At least ${PASSWORD_MIN_LENGTH} characters. Common passwords are refused. Share it with the user over a safe channel.`
              }
            >
              <Input.Password autoComplete="new-password" maxLength={200} />
            </Form.Item>
          </Col>
        )}
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item label="Role" name="role" rules={[{ required: true, message: "Choose a role" }]}>
            <FormSelect options={ROLE_OPTIONS} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item label="Plan type" name="plan_type">
            <Input placeholder="standard" maxLength={50} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            label="Active"
            name="active"
            valuePropName="checked"
            extra="Disabled users cannot sign in."
          >
            <Switch />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label="Modules" extra="The user sees only the modules granted here.">
        <fieldset aria-label="Modules" style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
          <Form.Item name="modules" noStyle>
            <Checkbox.Group style={{ width: "100%" }}>
              <Row gutter={[8, 8]}>
                {MODULES.map((m) => (
                  <Col key={m.moduleID} xs={24} sm={12} md={8}>
                    <Checkbox value={m.moduleID}>{m.name}</Checkbox>
                  </Col>
                ))}
              </Row>
            </Checkbox.Group>
          </Form.Item>
        </fieldset>
        <Space size={4} style={{ marginTop: 8, marginInlineStart: -8 }}>
          <Button type="link" size="small" onClick={() => form?.setFieldValue("modules", ALL_MODULE_IDS)}>
            Select all modules
          </Button>
          <Button type="link" size="small" onClick={() => form?.setFieldValue("modules", [])}>
            Clear modules
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
