import { Route, Routes } from 'react-router-dom';
import { mountStandalone } from '@motoparts/state/standalone';
import { pageFor } from './pages';
import { routes } from './routes';

const HomePage = pageFor('HomePage');

// Standalone mode for this team: the same pages on :3001 without the shell, on the same paths as
// in the shell (routes.ts); any other path shows the home page.
void mountStandalone(
  'storefront',
  <Routes>
    {routes.map(({ path, module }) => {
      const Page = pageFor(module);
      return <Route key={path} path={path} element={<Page />} />;
    })}
    <Route path="*" element={<HomePage />} />
  </Routes>,
);
