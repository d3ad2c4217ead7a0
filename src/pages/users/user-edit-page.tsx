import { Edit, useForm } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import type { UserRecord } from "../../../schemas/auth";
import { UserForm, type UserFormValues } from "./user-form";

/** `/users/edit/:id`. */
export default function UserEditPage() {
  const { formProps, saveButtonProps, query } = useForm<UserRecord, HttpError, UserFormValues>({
    resource: "users",
    action: "edit",
    redirect: "show",
    successNotification: { type: "success", message: "Changes saved" },
  });
  const user = query?.data?.data;
  return (
    <Edit
      title={user ? `Edit ${user.first_name} ${user.last_name}` : "Edit user"}
      saveButtonProps={saveButtonProps}
      isLoading={query?.isLoading}
    >
      <UserForm mode="edit" formProps={formProps} />
    </Edit>
  );
}
