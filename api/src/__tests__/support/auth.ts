import { call } from './harness';

const emulator = () => {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  if (!host) throw new Error('FIREBASE_AUTH_EMULATOR_HOST is not set (jest globalSetup sets it)');
  return `http://${host}`;
};

/** Creates an account in the Firebase Auth emulator through its REST API; returns an ID token. */
export async function signUp(
  email: string,
  password = 'secret-pass-1',
  displayName?: string,
): Promise<string> {
  const res = await fetch(`${emulator()}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email,
      password,
      returnSecureToken: true,
      ...(displayName ? { displayName } : {}),
    }),
  });
  const body = (await res.json()) as { idToken?: string; error?: { message: string } };
  if (!body.idToken) throw new Error(`emulator signUp failed: ${JSON.stringify(body)}`);
  return body.idToken;
}

export async function signIn(email: string, password: string): Promise<string> {
  const res = await fetch(
    `${emulator()}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=any`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  const body = (await res.json()) as { idToken?: string };
  if (!body.idToken) throw new Error(`emulator signIn failed: ${JSON.stringify(body)}`);
  return body.idToken;
}

export async function clearEmulatorAccounts(): Promise<void> {
  await fetch(`${emulator()}/emulator/v1/projects/demo-motoparts/accounts`, { method: 'DELETE' });
}

/** A unique address per run so files (and reruns against a shared emulator) never collide. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@motoparts-test.dev`;
}

export interface Account {
  email: string;
  /** Our API token. */
  token: string;
  /** The Firebase ID token it was exchanged for. */
  idToken: string;
}

/** Signs up in the emulator and trades the ID token for our API token. */
export async function account(base: string, email: string, displayName?: string): Promise<Account> {
  const idToken = await signUp(email, 'secret-pass-1', displayName);
  const res = await call<{ token: string; admin: boolean }>(
    base,
    'PUT',
    `/user/${encodeURIComponent(email)}`,
    {
      headers: { authorization: `Bearer ${idToken}` },
    },
  );
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.status} ${res.text}`);
  return { email, token: res.body.token, idToken };
}

/** customer, another customer and an admin (bootstrapped through ADMIN_EMAILS). */
export async function cast(
  base: string,
  adminEmail: string,
): Promise<{ customer: Account; other: Account; admin: Account }> {
  const [customer, other, admin] = await Promise.all([
    account(base, uniqueEmail('customer'), 'Cass Customer'),
    account(base, uniqueEmail('other'), 'Otto Other'),
    account(base, adminEmail, 'Ada Admin'),
  ]);
  return { customer, other, admin };
}

/** Deletes the emulator account behind an ID token, as the account's owner would. */
export async function deleteAccount(idToken: string): Promise<void> {
  const res = await fetch(`${emulator()}/identitytoolkit.googleapis.com/v1/accounts:delete?key=any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ idToken }),
  });
  if (!res.ok) throw new Error(`emulator delete failed: ${res.status} ${await res.text()}`);
}

/** The claims of a JWT (unverified), e.g. the uid (`user_id`) of a Firebase ID token. */
export function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
}

/**
 * An unsigned ID token like the emulator accepts (alg "none"): what an attacker can make for any
 * claims. The emulator checks only that the uid exists.
 */
export function forgeIdToken(uid: string, email: string): string {
  const now = Math.floor(Date.now() / 1000);
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'none', typ: 'JWT' })}.${enc({
    iss: 'https://securetoken.google.com/demo-motoparts',
    aud: 'demo-motoparts',
    auth_time: now,
    user_id: uid,
    sub: uid,
    iat: now,
    exp: now + 3600,
    email,
    email_verified: true,
    firebase: { identities: { email: [email] }, sign_in_provider: 'password' },
  })}.`;
}

/**
 * Verifies the account's email as its owner would: asks the emulator for the verification mail
 * (an out-of-band code), reads the code from the emulator's outbox and applies it.
 */
export async function verifyEmail(idToken: string, email: string): Promise<void> {
  const send = await fetch(`${emulator()}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ requestType: 'VERIFY_EMAIL', idToken }),
  });
  if (!send.ok) throw new Error(`sendOobCode failed: ${send.status} ${await send.text()}`);
  const project = process.env.FIREBASE_PROJECT_ID ?? 'demo-motoparts';
  const outbox = (await (await fetch(`${emulator()}/emulator/v1/projects/${project}/oobCodes`)).json()) as {
    oobCodes: { email: string; requestType: string; oobCode: string }[];
  };
  const code = outbox.oobCodes.filter((c) => c.email === email && c.requestType === 'VERIFY_EMAIL').at(-1);
  if (!code) throw new Error(`no verification code for ${email}`);
  const apply = await fetch(`${emulator()}/identitytoolkit.googleapis.com/v1/accounts:update?key=any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ oobCode: code.oobCode }),
  });
  if (!apply.ok) throw new Error(`applying the code failed: ${apply.status} ${await apply.text()}`);
}
