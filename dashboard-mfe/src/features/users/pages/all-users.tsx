import { useState, type ReactNode } from 'react';
import { toast } from 'react-toastify';
import { MESSAGES, type User } from '@motoparts/contracts';
import { errorMessage, errorStatus, selectSessionUser, useAppSelector } from '@motoparts/state';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { QueryTable } from '../../../components/query-table';
import { ADMIN_PAGE_SIZE } from '../../../lib/list-page';
import {
  useEndSessionsMutation,
  useGetUsersQuery,
  useMakeAdminMutation,
  useRemoveAdminMutation,
  useSetDisabledMutation,
} from '../api';

/** An action on someone else's account that asks first: what it is, and whose. */
type Pending = { kind: 'endSessions' | 'removeAdmin' | 'disable'; email: string };

/** What each confirmation says and does. */
const CONFIRM: Record<
  Pending['kind'],
  { title: string; confirmLabel: string; cancelLabel: string; body: (email: string) => ReactNode }
> = {
  endSessions: {
    title: "End this user's sessions?",
    confirmLabel: 'Yes, end sessions',
    cancelLabel: 'Keep them signed in',
    body: (email) =>
      `${email} is signed out on every device and has to sign in again. Their orders and profile stay as they are.`,
  },
  removeAdmin: {
    title: 'Remove the admin role?',
    confirmLabel: 'Yes, remove admin',
    cancelLabel: 'Keep them admin',
    body: (email) =>
      `${email} becomes a customer at their next click: the admin pages and actions are closed to them.`,
  },
  disable: {
    title: 'Disable this account?',
    confirmLabel: 'Yes, disable',
    cancelLabel: 'Keep it enabled',
    body: (email) =>
      `${email} is signed out on every device and cannot sign in until an admin enables the account again. Their orders and profile are kept.`,
  },
};

/**
 * docs/product.md (admin): every user; Make Admin for non-admins and Remove admin for other
 * admins, Disable/Enable for other customers, and End sessions (each confirmed) for everyone but
 * yourself, who has Sign Out.
 */
export default function AllUsers() {
  const me = useAppSelector(selectSessionUser)?.email;
  const [page, setPage] = useState(1);
  const users = useGetUsersQuery(page);
  const [makeAdmin, promoting] = useMakeAdminMutation();
  const [removeAdmin, demoting] = useRemoveAdminMutation();
  const [setDisabled, switching] = useSetDisabledMutation();
  const [endSessions, ending] = useEndSessionsMutation();
  const [pending, setPending] = useState<Pending | null>(null);
  const busy = demoting.isLoading || switching.isLoading || ending.isLoading;

  async function run(action: () => Promise<unknown>, done: string, failed: string) {
    try {
      await action();
      toast.success(done);
    } catch (err) {
      toast.error(errorMessage(err, failed));
    }
  }

  async function confirmPending() {
    if (!pending) return;
    const { kind, email } = pending;
    if (kind === 'endSessions') {
      await run(
        () => endSessions(email).unwrap(),
        `Sessions ended for ${email}`,
        'The sessions could not be ended. Please try again.',
      );
    } else if (kind === 'removeAdmin') {
      await run(
        () => removeAdmin(email).unwrap(),
        `${email} is no longer an admin`,
        'The admin role could not be removed. Please try again.',
      );
    } else {
      await run(
        () => setDisabled({ email, disabled: true }).unwrap(),
        `${email} is disabled`,
        'The account could not be disabled. Please try again.',
      );
    }
    setPending(null);
  }

  async function promote(email: string) {
    try {
      const result = await makeAdmin(email).unwrap();
      if (result.modifiedCount > 0) toast.success(MESSAGES.madeAdmin);
      else toast.info(`${email} is already an admin.`);
    } catch (err) {
      // docs/product.md names one failure, the server's 403, and its text.
      if (errorStatus(err) === 403) toast.error(MESSAGES.makeAdminFailed);
      else toast.error(errorMessage(err, MESSAGES.makeAdminFailed));
    }
  }

  function roleCell(user: User) {
    if (user.role !== 'admin') {
      return (
        <button
          type="button"
          className="btn btn-secondary"
          aria-label={`Make Admin: ${user.email}`}
          disabled={user.disabled || (promoting.isLoading && promoting.originalArgs === user.email)}
          onClick={() => void promote(user.email)}
        >
          Make Admin
        </button>
      );
    }
    return (
      <span className="dash-cell-actions">
        <span className="dash-badge dash-badge-admin">Admin</span>
        {user.email !== me && (
          <button
            type="button"
            className="btn btn-outline"
            aria-label={`Remove admin: ${user.email}`}
            onClick={() => setPending({ kind: 'removeAdmin', email: user.email })}
          >
            Remove admin
          </button>
        )}
      </span>
    );
  }

  function accountCell(user: User) {
    if (user.email === me) return <span className="dash-muted">Your account</span>;
    if (user.role === 'admin') return <span className="dash-muted">Enabled (admins stay enabled)</span>;
    if (user.disabled) {
      return (
        <span className="dash-cell-actions">
          <span className="dash-badge dash-badge-disabled">Disabled</span>
          <button
            type="button"
            className="btn btn-secondary"
            aria-label={`Enable: ${user.email}`}
            disabled={switching.isLoading && switching.originalArgs?.email === user.email}
            onClick={() =>
              void run(
                () => setDisabled({ email: user.email, disabled: false }).unwrap(),
                `${user.email} is enabled again`,
                'The account could not be enabled. Please try again.',
              )
            }
          >
            Enable
          </button>
        </span>
      );
    }
    return (
      <button
        type="button"
        className="btn btn-outline"
        aria-label={`Disable: ${user.email}`}
        onClick={() => setPending({ kind: 'disable', email: user.email })}
      >
        Disable
      </button>
    );
  }

  const confirm = pending && CONFIRM[pending.kind];
  return (
    <section aria-labelledby="all-users-title">
      <h1 id="all-users-title">All Users</h1>
      <QueryTable
        query={users}
        rows={users.currentData?.items}
        what="users"
        label="Users table"
        columns={['#', 'Email', 'Name', 'Role', 'Account', 'Sessions']}
        renderRow={(user, index) => (
          <tr key={user._id} data-email={user.email}>
            <td>{(page - 1) * ADMIN_PAGE_SIZE + index + 1}</td>
            <th scope="row">
              {user.email}
              {user.email === me && <span className="dash-muted"> (you)</span>}
            </th>
            <td>{user.name || <span className="dash-muted">—</span>}</td>
            <td>{roleCell(user)}</td>
            <td>{accountCell(user)}</td>
            <td>
              {user.email === me ? (
                <span className="dash-muted">Use Sign Out</span>
              ) : (
                <button
                  type="button"
                  className="btn btn-outline"
                  aria-label={`End sessions: ${user.email}`}
                  onClick={() => setPending({ kind: 'endSessions', email: user.email })}
                >
                  End sessions
                </button>
              )}
            </td>
          </tr>
        )}
        pager={{
          page,
          total: users.currentData?.total ?? 0,
          pageSize: ADMIN_PAGE_SIZE,
          label: 'User pages',
          onPage: setPage,
        }}
      />
      {pending && confirm && (
        <ConfirmDialog
          title={confirm.title}
          confirmLabel={confirm.confirmLabel}
          cancelLabel={confirm.cancelLabel}
          busy={busy}
          onConfirm={() => void confirmPending()}
          onCancel={() => setPending(null)}
        >
          <p>{confirm.body(pending.email)}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
