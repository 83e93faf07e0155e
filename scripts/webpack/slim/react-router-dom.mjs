// @ts-check
// react-router-dom v7 is react-router plus the DOM data routers we leave out. These names come
// from the shared 'react-router' (this import is consumed from the share scope), so code importing
// either package talks to one router context. Every build checks that react-router.mjs offers
// each of them (slim-check.cjs).
export {
  BrowserRouter,
  HashRouter,
  MemoryRouter,
  Link,
  NavLink,
  Navigate,
  Outlet,
  Route,
  Routes,
  createSearchParams,
  generatePath,
  matchPath,
  matchRoutes,
  resolvePath,
  useHref,
  useInRouterContext,
  useLinkClickHandler,
  useLocation,
  useMatch,
  useNavigate,
  useNavigationType,
  useOutlet,
  useOutletContext,
  useParams,
  useResolvedPath,
  useRoutes,
  useSearchParams,
} from 'react-router';
