import { useState } from 'react';
import { toast } from 'react-toastify';
import { MESSAGES } from '@motoparts/contracts';
import { errorMessage, errorStatus, selectSessionUser, useAppSelector } from '@motoparts/state';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { QueryTable } from '../../../components/query-table';
import { ADMIN_PAGE_SIZE } from '../../../lib/list-page';
import { useEndSessionsMutation, useGetUsersQuery, useMakeAdminMutation } from '../api';

/**
 * docs/product.md (admin): every user; Make Admin for non-admins, an Admin badge for admins, and
 * End sessions (confirmed) for everyone but yourself, who has Sign Out.
 */
export default function AllUsers() {
  const me = useAppSelector(selectSessionUser)?.email;
  const [page, setPage] = useState(1);
  const users = useGetUsersQuery(page);
  const [makeAdmin, promoting] = useMakeAdminMutation();
  const [endSessions, ending] = useEndSessionsMutation();
  const [toEnd, setToEnd] = useState<string | null>(null);

  async function confirmEndSessions() {
    if (!toEnd) return;
    try {
      await endSessions(toEnd).unwrap();
      toast.success(`Sessions ended for ${toEnd}`);
    } catch (err) {
      toast.error(errorMessage(err, 'The sessions could not be ended. Please try again.'));
    }
    setToEnd(null);
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

  return (
    <section aria-labelledby="all-users-title">
      <h1 id="all-users-title">All Users</h1>
      <QueryTable
        query={users}
        rows={users.currentData?.items}
        what="users"
        label="Users table"
        columns={['#', 'Email', 'Name', 'Role', 'Sessions']}
        renderRow={(user, index) => (
          <tr key={user._id} data-email={user.email}>
            <td>{(page - 1) * ADMIN_PAGE_SIZE + index + 1}</td>
            <th scope="row">
              {user.email}
              {user.email === me && <span className="dash-muted"> (you)</span>}
            </th>
            <td>{user.name || <span className="dash-muted">—</span>}</td>
            <td>
              {user.role === 'admin' ? (
                <span className="dash-badge dash-badge-admin">Admin</span>
              ) : (
                <button
                  type="button"
                  className="btn btn-secondary"
                  aria-label={`Make Admin: ${user.email}`}
                  disabled={promoting.isLoading && promoting.originalArgs === user.email}
                  onClick={() => void promote(user.email)}
                >
                  Make Admin
                </button>
              )}
            </td>
            <td>
              {user.email === me ? (
                <span className="dash-muted">Use Sign Out</span>
              ) : (
                <button
                  type="button"
                  className="btn btn-outline"
                  aria-label={`End sessions: ${user.email}`}
                  onClick={() => setToEnd(user.email)}
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
      {toEnd && (
        <ConfirmDialog
          title="End this user's sessions?"
          confirmLabel="Yes, end sessions"
          cancelLabel="Keep them signed in"
          busy={ending.isLoading}
          onConfirm={() => void confirmEndSessions()}
          onCancel={() => setToEnd(null)}
        >
          <p>
            {toEnd} is signed out on every device and has to sign in again. Their orders and profile stay as
            they are.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
