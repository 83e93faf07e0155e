import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { Link, Route, Routes, useLocation } from 'react-router-dom';
import { injectStyles, profileApi, selectSessionUser, useAppSelector } from '@motoparts/state';
import { Loading } from '../components/status';
import { ProfileIdentity } from '../features/users/components/profile-identity';
import css from '../styles/dashboard.css';
import firstScreenCss from '../styles/first-screen.css';
import { FIRST_SCREEN_STYLES_ID } from '../styles/first-screen';
import type { DashboardPath } from './access';
import { DashboardLayout } from './dashboard-layout';
import { PageGuard } from './page-guard';

// The first screen's rules are already there on a cold /dashboard where the prerendered frame
// showed (index.html's inline script linked them, app/prerender.tsx); anywhere else they come here.
injectStyles(FIRST_SCREEN_STYLES_ID, firstScreenCss);
injectStyles('dashboard-mfe-styles', css);

// Each page is its own chunk: the dashboard's entry is just the frame and menu, a customer never
// downloads the admin screens, and nobody downloads the payment page (and Stripe behind it)
// before opening it.
const loadMyProfile = () => import('../features/users/pages/my-profile');
const MyProfile = lazy(loadMyProfile);
/** The landing page is what /dashboard opens on: fetch its chunk as this one arrives, not after it renders. */
const AT_INDEX = /^\/dashboard\/?$/;
if (AT_INDEX.test(location.pathname)) void loadMyProfile().catch(() => undefined);
const pages: Record<Exclude<DashboardPath, ''>, ComponentType> = {
  myOrder: lazy(() => import('../features/orders/pages/my-order')),
  addReview: lazy(() => import('../features/reviews/pages/add-review')),
  // The Overview with Manage Products' restock form (app/ wires the two features together).
  overview: lazy(() => import('./overview-page')),
  manageOrder: lazy(() => import('../features/orders/pages/manage-order')),
  allUser: lazy(() => import('../features/users/pages/all-users')),
  manageProduct: lazy(() => import('../features/products/pages/manage-products')),
  addProduct: lazy(() => import('../features/products/pages/add-product')),
  reviews: lazy(() => import('../features/reviews/pages/manage-reviews')),
};
const PaymentPage = lazy(() => import('../features/payments/pages/payment-page'));
const CheckoutPaymentPage = lazy(() => import('../features/payments/pages/checkout-payment-page'));
/** Manage Products' Edit: not a menu item, but the same audience as the page it is opened from. */
const EditProduct = lazy(() => import('../features/products/pages/edit-product'));

/**
 * While My Profile's chunk is still on its way: the top of that page from the session, the same
 * boxes as the page and as the HTML's stand-in, rather than "Loading..." in their place.
 */
function MyProfileTop() {
  const user = useAppSelector(selectSessionUser);
  return (
    <section aria-labelledby="my-profile-title">
      <ProfileIdentity
        name={<span>{user?.displayName ?? ''}</span>}
        email={<span>{user?.email ?? ''}</span>}
      />
    </section>
  );
}

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
 * The landing page (My Profile) shows the account's record: ask for it with the frame, in parallel
 * with the page's chunk, rather than once that chunk has arrived and rendered.
 */
function usePrefetchProfile() {
  const email = useAppSelector(selectSessionUser)?.email;
  const prefetch = profileApi.usePrefetch('getProfile');
  const atIndex = AT_INDEX.test(useLocation().pathname);
  useEffect(() => {
    if (atIndex && email) prefetch(email);
  }, [atIndex, email, prefetch]);
}

/**
 * Everything under /dashboard/* (docs/product.md). The shell mounts this behind its sign-in guard, so
 * routes here are relative and every visitor is signed in.
 */
export default function DashboardApp() {
  usePrefetchProfile();
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route element={<DashboardLayout />}>
          <Route
            index
            element={
              <Suspense fallback={<MyProfileTop />}>
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
            path="editProduct/:id"
            element={
              <PageGuard path="manageProduct">
                <Suspense fallback={<Loading />}>
                  <EditProduct />
                </Suspense>
              </PageGuard>
            }
          />
          <Route
            path="payment/:id"
            element={
              <Suspense fallback={<Loading />}>
                <PaymentPage />
              </Suspense>
            }
          />
          {/* One payment for every line of a checkout; its lines' own payment links lead here. */}
          <Route
            path="payment/checkout/:checkoutId"
            element={
              <Suspense fallback={<Loading />}>
                <CheckoutPaymentPage />
              </Suspense>
            }
          />
          <Route path="*" element={<DashboardNotFound />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
