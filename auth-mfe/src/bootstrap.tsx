import { Navigate, Route, Routes } from 'react-router-dom';
import { mountStandalone } from '@motoparts/state/standalone';
import LoginPage from './pages/login-page';
import SignupPage from './pages/signup-page';

// Standalone mode for this team: the sign-in pages on :3002 without the shell.
void mountStandalone(
  'auth',
  <Routes>
    <Route path="/login" element={<LoginPage />} />
    <Route path="/signup" element={<SignupPage />} />
    <Route path="*" element={<Navigate to="/login" replace />} />
  </Routes>,
);
