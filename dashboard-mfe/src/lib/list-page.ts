/** Admin lists (every order, every user, every review) grow without bound, so they are paged. */
export const ADMIN_PAGE_SIZE = 25;

/** One page of a list plus the total the API reports in X-Total-Count. */
export interface ListPage<T> {
  items: T[];
  total: number;
}

/** An RTK Query `transformResponse` for the API's paged lists. */
export function toListPage<T>(items: T[], meta: { response?: Response } | undefined): ListPage<T> {
  return { items, total: Number(meta?.response?.headers.get('x-total-count') ?? items.length) };
}
