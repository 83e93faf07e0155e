import { Route, Routes } from 'react-router-dom';
import { mountStandalone } from '@motoparts/state/standalone';
import HomePage from './pages/home-page';

void mountStandalone(
  'storefront',
  <Routes>
    <Route path="*" element={<HomePage />} />
  </Routes>,
);
