import { API_URL, AUTH_EMULATOR_URL, FIREBASE_PROJECT } from './env';

/** Signs a user in against the auth emulator and exchanges the ID token for our API token. */
export async function emulatorSignIn(email: string, password: string): Promise<{ idToken: string }> {
  const res = await fetch(
    `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  if (!res.ok) throw new Error(`emulator sign-in failed for ${email}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { idToken: string };
}

/** Creates a fresh account in the auth emulator (unique email per call unless given). */
export async function emulatorSignUp(
  email = `e2e.${Date.now()}.${Math.floor(Math.random() * 1e6)}@motoparts.test`,
  password = 'e2e-pass-2026',
  displayName = 'E2E Rider',
): Promise<{ email: string; password: string; idToken: string }> {
  const res = await fetch(
    `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, displayName, returnSecureToken: true }),
    },
  );
  if (!res.ok) throw new Error(`emulator sign-up failed: ${res.status} ${await res.text()}`);
  const { idToken } = (await res.json()) as { idToken: string };
  return { email, password, idToken };
}

/** Our API token for an emulator user (PUT /user/:email with the Firebase ID token). */
export async function apiToken(email: string, password: string): Promise<string> {
  const { idToken } = await emulatorSignIn(email, password);
  const res = await fetch(`${API_URL}/user/${encodeURIComponent(email)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
    body: JSON.stringify({ email }),
  });
  if (!res.ok) throw new Error(`token exchange failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** A JSON call to the API with an optional bearer token; throws with the body on non-2xx. */
export async function api<T>(method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const res = await fetch(`${API_URL}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export { FIREBASE_PROJECT };
