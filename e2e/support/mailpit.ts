// What the stack's Mailpit received: the mail the API under test sent. One Mailpit client serves
// both suites (the API suite's, which reads MAILPIT_URL when called); `npm test` sets
// E2E_MAILPIT_URL to its stack's Mailpit, the default is `npm start`'s. The stack's API and every
// spec share it, so a spec reads the messages sent to its own addresses.
import { MAILPIT_URL } from './env';

process.env.MAILPIT_URL ??= MAILPIT_URL;

export * from '../../api/src/__tests__/support/mailpit';
