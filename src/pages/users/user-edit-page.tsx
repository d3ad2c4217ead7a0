import { Edit, useForm } from "@refinedev/antd";
import { type HttpError, useOne } from "@refinedev/core";
import { useParams } from "react-router";
import type { UserRecord } from "../../../schemas/auth";
import { type RecordPlace, RecordUnavailablePage } from "../../resources/record-not-found";
import { recordState } from "../../resources/show/record-state";
import { UserForm, type UserFormValues } from "./user-form";

const USERS_PLACE: RecordPlace = { singular: "User", listLabel: "Users", listPath: "/users" };

/** `/users/edit/:id`. A user who is missing or failed to load is said so in place, with no form. */
export default function UserEditPage() {
  const { id } = useParams();
  // Read here, not by useForm, whose read toasts every failure; the failure is shown in place.
  const { query } = useOne<UserRecord, HttpError>({ resource: "users", id, errorNotification: false });
  const { formProps, saveButtonProps } = useForm<UserRecord, HttpError, UserFormValues>({
    resource: "users",
    action: "edit",
    id,
    redirect: "show",
    successNotification: { type: "success", message: "Changes saved" },
    queryOptions: { enabled: false },
  });
  const user = query.data?.data;
  const state = recordState(id, query);

  if (state === "not-found" || state === "failed") {
    return (
      <RecordUnavailablePage
        title="Edit user"
        place={USERS_PLACE}
        state={state}
        error={query.error}
        onRetry={() => query.refetch()}
      />
    );
  }
  return (
    <Edit
      title={user ? `Edit ${user.first_name} ${user.last_name}` : "Edit user"}
      saveButtonProps={{ ...saveButtonProps, disabled: !user }}
      isLoading={state === "loading"}
    >
      {user && <UserForm key={user.id} mode="edit" formProps={{ ...formProps, initialValues: user }} />}
    </Edit>
  );
}
