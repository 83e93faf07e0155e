import type { RemoteRoute } from '@motoparts/state';

/** The sign-in pages; `module` names its exposed module. The shell builds its router from this. */
export const routes: RemoteRoute[] = [
  { path: '/login', title: 'Login', module: 'LoginPage' },
  { path: '/signup', title: 'Sign Up', module: 'SignupPage' },
];
