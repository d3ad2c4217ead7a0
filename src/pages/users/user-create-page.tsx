import { Create, useForm } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import type { UserRecord } from "../../../schemas/auth";
import { UserForm, type UserFormValues } from "./user-form";

/** `/users/create`. */
export default function UserCreatePage() {
  const { formProps, saveButtonProps } = useForm<UserRecord, HttpError, UserFormValues>({
    resource: "users",
    action: "create",
    redirect: "show",
    successNotification: (data) => ({
      type: "success",
      message: data?.data.invite_pending
        ? `Invitation sent to ${data.data.email}`
        : `User ${data?.data.first_name ?? ""} created`.replace("  ", " "),
    }),
  });
  return (
    <Create title="Create user" saveButtonProps={saveButtonProps}>
      <UserForm mode="create" formProps={formProps} />
    </Create>
  );
}
