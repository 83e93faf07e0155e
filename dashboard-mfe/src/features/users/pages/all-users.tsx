import { useState } from 'react';
import { toast } from 'react-toastify';
import { MESSAGES } from '@motoparts/contracts';
import { errorMessage, errorStatus, selectSessionUser, useAppSelector } from '@motoparts/state';
import { QueryTable } from '../../../components/query-table';
import { ADMIN_PAGE_SIZE } from '../../../lib/list-page';
import { useGetUsersQuery, useMakeAdminMutation } from '../api';

/** docs/product.md (admin): every user; Make Admin for non-admins, an Admin badge for admins. */
export default function AllUsers() {
  const me = useAppSelector(selectSessionUser)?.email;
  const [page, setPage] = useState(1);
  const users = useGetUsersQuery(page);
  const [makeAdmin, promoting] = useMakeAdminMutation();

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
        columns={['#', 'Email', 'Name', 'Role']}
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
    </section>
  );
}
