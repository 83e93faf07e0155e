import { Link } from 'react-router-dom';
import { LoginForm } from './login-form';

/** The inline login card on the home page (exposed as `auth/LoginCard`). */
export default function LoginCard() {
  return (
    <section className="card auth-card" aria-labelledby="login-card-heading">
      <h3 id="login-card-heading">Login</h3>
      <p className="auth-lead">Sign in to order parts in bulk and track your orders.</p>
      <LoginForm />
      <p className="auth-switch">
        New to MotoParts? <Link to="/signup">Create an account</Link>
      </p>
    </section>
  );
}
