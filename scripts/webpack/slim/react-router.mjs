// @ts-check
// The react-router every front end imports: the declarative router (<BrowserRouter>, <Routes>,
// hooks). The data/framework-mode APIs (createBrowserRouter, loaders, RSC, sessions, cookies) are
// left out on purpose: they are most of react-router's 61 KB gzip. This file's import of
// 'react-router' is the package's production build (shared.cjs). Adding a name here is a release
// of the shell first, except for the path helpers a remote may take from its own copy meanwhile
// (docs/build.md, "A name the shell does not offer").
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
