import { Link, Navigate, useLocation } from 'react-router-dom';
import { selectAuthStatus, useAppSelector } from '@motoparts/state';
import { LoginForm } from '../components/login-form';
import { useReturnTo } from '../use-auth-action';

export default function LoginPage() {
  const status = useAppSelector(selectAuthStatus);
  const location = useLocation();
  const back = useReturnTo();
  // Someone already signed in has nothing to do here.
  if (status === 'signedIn') return <Navigate to={back.path} replace state={back.state} />;
  return (
    <div className="auth-page">
      <section className="card auth-card" aria-labelledby="login-heading">
        <h1 id="login-heading">Login</h1>
        <p className="auth-lead">Welcome back. Sign in to order parts and track your orders.</p>
        <LoginForm passwordReset />
        <p className="auth-switch">
          New to MotoParts?{' '}
          <Link to="/signup" state={location.state}>
            Create an account
          </Link>
        </p>
      </section>
    </div>
  );
}
