import type * as routesModule from './routes';
import type * as LoginPageModule from '../features/sign-in/pages/login-page';
import type * as SignupPageModule from '../features/sign-in/pages/signup-page';
import type * as LoginCardModule from '../features/sign-in/components/login-card';
import type * as sessionModule from '../features/session';

/**
 * The modules this remote exposes (the `exposes` of its webpack.config.js), as types only: the
 * shell's typecheck holds each to what the shell expects of it (shell/src/remotes/exposed.ts) and
 * types its loads. Nothing here is bundled; a module added to `exposes` is added here too.
 */
export interface Exposed {
  routes: typeof routesModule;
  LoginPage: typeof LoginPageModule;
  SignupPage: typeof SignupPageModule;
  LoginCard: typeof LoginCardModule;
  session: typeof sessionModule;
}
