import { lazy, Suspense, type ComponentType } from 'react';
import { Link, Route, Routes } from 'react-router-dom';
import { injectStyles } from '@motoparts/state';
import { DashboardLayout } from './components/dashboard-layout';
import { PageGuard } from './components/page-guard';
import { Loading } from './components/status';
import type { DashboardPath } from './features/access';
import css from './dashboard.css';

injectStyles('dashboard-mfe-styles', css);

// Each page is its own chunk: the dashboard's entry is just the frame and menu, a customer never
// downloads the admin screens, and nobody downloads the payment page (and Stripe behind it)
// before opening it.
const MyProfile = lazy(() => import('./pages/my-profile'));
const pages: Record<Exclude<DashboardPath, ''>, ComponentType> = {
  myOrder: lazy(() => import('./pages/my-order')),
  addReview: lazy(() => import('./pages/add-review')),
  manageOrder: lazy(() => import('./pages/manage-order')),
  allUser: lazy(() => import('./pages/all-users')),
  manageProduct: lazy(() => import('./pages/manage-products')),
  addProduct: lazy(() => import('./pages/add-product')),
  reviews: lazy(() => import('./pages/manage-reviews')),
};
const PaymentPage = lazy(() => import('./pages/payment-page'));

function DashboardNotFound() {
  return (
    <section className="card" aria-labelledby="dash-not-found-title">
      <h1 id="dash-not-found-title">Page not found</h1>
      <p>There is no such dashboard page.</p>
      <Link to="/dashboard">Go to My Profile</Link>
    </section>
  );
}

/**
 * Everything under /dashboard/* (docs/product.md). The shell mounts this behind its sign-in guard, so
 * routes here are relative and every visitor is signed in.
 */
export default function DashboardApp() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route element={<DashboardLayout />}>
          <Route
            index
            element={
              <Suspense fallback={<Loading />}>
                <MyProfile />
              </Suspense>
            }
          />
          {(Object.keys(pages) as (keyof typeof pages)[]).map((path) => {
            const Page = pages[path];
            return (
              <Route
                key={path}
                path={path}
                element={
                  <PageGuard path={path}>
                    <Suspense fallback={<Loading />}>
                      <Page />
                    </Suspense>
                  </PageGuard>
                }
              />
            );
          })}
          <Route
            path="payment/:id"
            element={
              <Suspense fallback={<Loading />}>
                <PaymentPage />
              </Suspense>
            }
          />
          <Route path="*" element={<DashboardNotFound />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
