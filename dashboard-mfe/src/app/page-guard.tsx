import type { ReactNode } from 'react';
import { selectIsAdmin, useAppSelector } from '@motoparts/state';
import { audienceOf, canSee, type DashboardPath } from './access';
import { NotAllowed } from './not-allowed';

/**
 * Shows a page only to its audience (the same table as the menu). The API refuses these calls
 * too (403); this just spares people a broken page.
 */
export function PageGuard({ path, children }: { path: DashboardPath; children: ReactNode }) {
  const isAdmin = useAppSelector(selectIsAdmin);
  const audience = audienceOf(path);
  return canSee(audience, isAdmin) ? <>{children}</> : <NotAllowed audience={audience} />;
}
