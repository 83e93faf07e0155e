import { useState } from 'react';
import { toast } from 'react-toastify';
import { MESSAGES, type Review } from '@motoparts/contracts';
import { errorMessage } from '@motoparts/state';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { QueryTable } from '../../../components/query-table';
import { ADMIN_PAGE_SIZE } from '../../../lib/list-page';
import { useDeleteReviewMutation, useGetReviewsPageQuery } from '../api';

/** Admin moderation: every published review, newest first, each deletable after a confirmation. */
export default function ManageReviews() {
  const [page, setPage] = useState(1);
  const reviews = useGetReviewsPageQuery(page);
  const [deleteReview, deleting] = useDeleteReviewMutation();
  const [toDelete, setToDelete] = useState<Review | null>(null);
  const total = reviews.currentData?.total ?? 0;

  async function confirmDelete() {
    if (!toDelete) return;
    try {
      await deleteReview(toDelete._id).unwrap();
      toast.success(`The review by ${toDelete.name} was deleted`);
      // Deleting the last row of the last page would leave an empty page behind.
      if (reviews.currentData?.items.length === 1 && page > 1) setPage(page - 1);
    } catch (err) {
      toast.error(errorMessage(err, 'The review could not be deleted. Please try again.'));
    }
    setToDelete(null);
  }

  return (
    <section aria-labelledby="manage-reviews-title">
      <h1 id="manage-reviews-title">Reviews</h1>
      <QueryTable
        query={reviews}
        rows={reviews.currentData?.items}
        what="reviews"
        empty="No reviews yet."
        label="Reviews table"
        columns={['Author', 'Rating', 'Review', 'Delete']}
        renderRow={(review) => (
          <tr key={review._id} data-review-id={review._id}>
            <th scope="row">{review.name}</th>
            <td>{review.rating} / 5</td>
            <td className="dash-review-text">{review.review}</td>
            <td>
              <button
                type="button"
                className="btn btn-outline"
                aria-label={`Delete the review by ${review.name}`}
                onClick={() => setToDelete(review)}
              >
                Delete
              </button>
            </td>
          </tr>
        )}
        pager={{ page, total, pageSize: ADMIN_PAGE_SIZE, label: 'Review pages', onPage: setPage }}
      />
      {toDelete && (
        <ConfirmDialog
          title="Delete this review?"
          confirmLabel="Yes, delete"
          busy={deleting.isLoading}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setToDelete(null)}
        >
          <p>{MESSAGES.confirmDelete}</p>
          <p className="dash-muted">{toDelete.review}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
