import { oneCleanLine, type ProfileUpdate, type TokenResponse, type User } from '@motoparts/contracts';
import type { UserRecord } from 'firebase-admin/auth';
import type { Caller } from '../http/context';
import type { Env } from '../lib/env';
import { AppError } from '../lib/app-error';
import { firebaseAuth, getFirebaseAccount, verifyFirebaseIdToken } from '../lib/firebase';
import type { Logger } from '../lib/logger';
import { signApiToken } from '../lib/tokens';
import { ReviewModel } from '../reviews/model';
import type { StoredUser, UserLookup } from './lookup';
import { UserModel, userWrites } from './model';

export function toUser(doc: StoredUser): User {
  return {
    _id: String(doc._id),
    email: doc.email ?? '',
    name: doc.name ?? '',
    role: doc.role,
    education: doc.education ?? '',
    location: doc.location ?? '',
    phone: doc.phone ?? '',
    linkedin: doc.linkedin ?? '',
    address: doc.address ?? '',
    ...(doc.disabled ? { disabled: true } : {}),
  };
}

/** The signed-in account behind an API token, or null when it no longer exists. */
export async function loadCaller(
  uid: string,
): Promise<(Caller & { sessionEpoch: number; disabled: boolean }) | null> {
  const doc = await UserModel.findById(uid).lean<StoredUser>();
  if (!doc?.email) return null;
  return {
    uid,
    email: doc.email,
    name: doc.name ?? '',
    admin: doc.role === 'admin',
    verified: doc.emailVerified === true,
    disabled: doc.disabled === true,
    sessionEpoch: doc.sessionEpoch ?? 0,
  };
}

/**
 * Gives the account `uid` another resource's records written under `email` before accounts were
 * keyed by uid (the orders: orders/legacy.ts). Handed in by whoever wires the app, so the users
 * depend on no resource that depends on them.
 */
export type LegacyClaim = (uid: string, email: string) => Promise<void>;

/** Admin status of the account holding this email, from the database (never from a token). */
export async function isAdmin(lookup: UserLookup, email: string): Promise<boolean> {
  return (await lookup.byEmail(email))?.role === 'admin';
}

/**
 * Records written before accounts were keyed by uid (ObjectId `_id`, seeded or older) belong to
 * whoever signs in with that address once Firebase has verified it: its orders and reviews are
 * stamped with the uid, then the record's fields move to `_id = uid` (filling in only what the
 * account's own record lacks, if it has one), and the old record goes last. A crash anywhere
 * before leaves the claim to the next exchange, which repeats every step harmlessly.
 */
async function claimLegacyRecord(
  claimOrders: LegacyClaim,
  uid: string,
  email: string,
  legacy: StoredUser | undefined,
): Promise<void> {
  await claimOrders(uid, email);
  await ReviewModel.updateMany({ email, uid: { $exists: false } }, { $set: { uid } });
  if (!legacy) return;
  const { _id: legacyId, ...fields } = legacy;
  const current = await UserModel.findById(uid).lean<StoredUser>();
  if (!current) {
    await UserModel.collection.insertOne({ ...fields, _id: uid } as never);
  } else {
    const $set: Record<string, unknown> = {};
    for (const key of ['name', 'education', 'location', 'phone', 'linkedin'] as const) {
      if (!current[key] && fields[key]) $set[key] = fields[key];
    }
    if (fields.role === 'admin') $set.role = 'admin';
    if (Object.keys($set).length > 0) await UserModel.updateOne({ _id: uid }, { $set });
  }
  await UserModel.collection.deleteOne({ _id: legacyId as never });
  userWrites.announce('all');
}

/**
 * Other accounts (deleted, or whose address changed) that still hold this email let go of it, so
 * the email is unique among current accounts and the newcomer inherits nothing. Each is written by
 * `_id`, and only while it still holds the address.
 */
async function releaseEmail(holders: StoredUser[], uid: string, email: string): Promise<void> {
  for (const other of holders) {
    if (typeof other._id !== 'string' || other._id === uid) continue;
    await UserModel.updateOne(
      { _id: other._id, email },
      { $unset: { email: 1 }, $set: { formerEmail: email } },
    );
  }
}

/**
 * Creates or refreshes the account's record from Firebase. Emails listed in ADMIN_EMAILS become
 * admins when Firebase says the address is verified (the emulator cannot verify addresses, so
 * there the list applies as is, with a log line); nobody else gets a role from here. Who holds the
 * address comes from the lookup (on the embedded database from memory, not a pass over the users).
 */
export async function syncUser(
  env: Env,
  log: Logger,
  lookup: UserLookup,
  account: UserRecord,
  email: string,
  claimOrders: LegacyClaim,
): Promise<StoredUser> {
  const uid = account.uid;
  // Firebase keeps display names as typed; ours are one clean line like every other field.
  const name = oneCleanLine(account.displayName ?? '').slice(0, 120);
  const listed = env.ADMIN_EMAILS.includes(email);
  let bootstrapAdmin = listed && account.emailVerified;
  if (listed && !account.emailVerified) {
    if (env.FIREBASE_AUTH_EMULATOR_HOST) {
      log.warn({ uid }, 'ADMIN_EMAILS: unverified address made admin (auth emulator mode)');
      bootstrapAdmin = true;
    } else {
      log.warn({ uid }, 'ADMIN_EMAILS: address not verified in Firebase; no admin role given');
    }
  }
  const holders = await lookup.holders(email);
  await releaseEmail(holders, uid, email);
  // An older record may carry orders, a profile and the admin role: only an owner Firebase has
  // proven holds the address gets them (an unverified sign-up could be anyone).
  const legacy = holders.find((doc) => typeof doc._id !== 'string');
  if (legacy) {
    if (account.emailVerified) await claimLegacyRecord(claimOrders, uid, email, legacy);
    else log.warn({ uid }, 'older record for this address left unclaimed: email not verified in Firebase');
  } else if (!holders.some((doc) => doc._id === uid) && !(await UserModel.exists({ _id: uid }))) {
    // Orders and reviews of the email-keyed era whose user record is already gone.
    if (account.emailVerified) await claimLegacyRecord(claimOrders, uid, email, undefined);
  }
  const doc = await UserModel.findOneAndUpdate(
    { _id: uid },
    {
      $setOnInsert: { _id: uid, ...(bootstrapAdmin ? {} : { role: 'user' }) },
      $set: {
        email,
        emailVerified: account.emailVerified,
        ...(name ? { name } : {}),
        ...(bootstrapAdmin ? { role: 'admin' } : {}),
      },
    },
    { upsert: true, new: true },
  ).lean<StoredUser>();
  if (!doc) throw new Error('upsert returned nothing');
  return doc;
}

/**
 * PUT /user/:email — trades a verified Firebase ID token for our API token. The token's claims
 * are checked against the account as Firebase holds it now: the emulator accepts unsigned tokens,
 * so a token naming someone else's email on one's own uid is refused here.
 */
export async function exchangeToken(
  env: Env,
  log: Logger,
  lookup: UserLookup,
  idToken: string,
  email: string,
  limitAccount: (uid: string) => Promise<void>,
  claimOrders: LegacyClaim,
): Promise<TokenResponse> {
  const decoded = await verifyFirebaseIdToken(env, idToken);
  await limitAccount(decoded.uid);
  const account = await getFirebaseAccount(env, decoded.uid);
  const accountEmail = account.email?.toLowerCase();
  if (!accountEmail) throw AppError.unauthenticated('The Firebase account has no email address.');
  if (decoded.email?.toLowerCase() !== accountEmail) {
    throw AppError.unauthenticated('The sign-in token does not match the Firebase account; sign in again.');
  }
  if (accountEmail !== email) throw AppError.forbidden('The signed-in account does not match this email.');
  const doc = await syncUser(env, log, lookup, account, accountEmail, claimOrders);
  // Compared with the very value the new API token carries: a sign-out after this read changes
  // it, and so ends that token too.
  assertIssuedAfterSignOut(decoded.iat, doc.sessionEpoch);
  const admin = doc.role === 'admin';
  return {
    token: signApiToken(env, {
      uid: account.uid,
      email: accountEmail,
      name: doc.name ?? '',
      admin,
      epoch: doc.sessionEpoch ?? 0,
    }),
    admin,
  };
}

/**
 * Sign-outs are one field, the account's `sessionEpoch`: the Unix second of its last sign-out.
 * API tokens carry the value they were issued with, so moving it ends every one of them
 * (http/auth.ts), and the exchange refuses a Firebase ID token issued (`iat`, whole seconds as
 * Firebase writes it) in or before that second: a copied ID token is no good after a sign-out,
 * even though Firebase keeps accepting it for up to an hour.
 */
export function assertIssuedAfterSignOut(iat: number | undefined, sessionEpoch: number | undefined): void {
  if (typeof iat === 'number' && iat > (sessionEpoch ?? 0)) return;
  throw AppError.unauthenticated('This sign-in ended with a sign-out; sign in again.');
}

/**
 * Records a sign-out: the account's sign-out second becomes the current one, or the one after the
 * last sign-out when that is later (two sign-outs within a second still differ, so a token issued
 * between them carries a value the second one changes). One conditional update, retried when
 * another sign-out overtook the read. Returns that second, or null when there is no such account.
 */
async function recordSignOut(uid: string, now: () => number): Promise<number | null> {
  for (;;) {
    const doc = await UserModel.findById(uid, { sessionEpoch: 1 }).lean<{ sessionEpoch?: number }>();
    if (!doc) return null;
    const previous = doc.sessionEpoch;
    const epoch = Math.max((previous ?? 0) + 1, Math.floor(now() / 1000));
    const res = await UserModel.updateOne(
      { _id: uid, sessionEpoch: previous ?? { $exists: false } },
      { $set: { sessionEpoch: epoch } },
    );
    if (res.matchedCount === 1) return epoch;
  }
}

/**
 * Resolves once the clock has left `second`. A sign-out answers only then, so an ID token from a
 * sign-in made after the answer is issued in a later second and accepted: signing out and in again
 * within one second is not refused. Costs the signing-out request up to a second (two when it
 * follows another sign-out of the account within the same second).
 */
async function pastSecond(second: number, now: () => number): Promise<void> {
  for (let left = (second + 1) * 1000 - now(); left > 0; left = (second + 1) * 1000 - now()) {
    await new Promise((resolve) => setTimeout(resolve, left));
  }
}

/**
 * Sign-out (`DELETE /session`): every API token and every Firebase ID token issued to this
 * account so far stops working (other devices sign in again, or renew with a newer ID token).
 */
export async function endSessions(uid: string, now: () => number = Date.now): Promise<void> {
  const epoch = await recordSignOut(uid, now);
  if (epoch !== null) await pastSecond(epoch, now);
}

/**
 * An admin ends another account's sessions (`DELETE /session/:email`): the same sign-out,
 * and Firebase revokes the account's refresh tokens, so no device of it can get a new ID token
 * without signing in again.
 */
export async function endSessionsOf(
  env: Env,
  lookup: UserLookup,
  email: string,
  now: () => number = Date.now,
): Promise<void> {
  const doc = await lookup.byEmail(email);
  if (!doc) throw AppError.notFound('User');
  // A record from before uid keying that nobody has claimed yet: no token was ever issued for it.
  if (typeof doc._id !== 'string') {
    throw new AppError('NOT_FOUND', 'No account has signed in with this address yet, so it has no sessions.');
  }
  const epoch = await recordSignOut(doc._id, now);
  if (epoch === null) throw AppError.notFound('User');
  try {
    await firebaseAuth(env).revokeRefreshTokens(doc._id);
  } catch (err) {
    // Gone from Firebase: it has no refresh tokens left to revoke.
    if ((err as { code?: string }).code !== 'auth/user-not-found') {
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'The API sessions were ended, but the auth provider could not be reached to end its sign-ins; try again.',
      );
    }
  }
  await pastSecond(epoch, now);
}

/** The caller's own record, or (for admins) the record of the account holding `email`. */
export async function getUser(lookup: UserLookup, caller: Caller, email: string): Promise<User> {
  const doc =
    caller.email === email
      ? await UserModel.findById(caller.uid).lean<StoredUser>()
      : await lookup.byEmail(email);
  if (!doc) throw AppError.notFound('User');
  return toUser(doc);
}

export async function updateProfile(uid: string, fields: ProfileUpdate): Promise<User> {
  const $set: Record<string, string> = {};
  for (const key of ['education', 'location', 'phone', 'linkedin'] as const) {
    const v = fields[key];
    if (v !== undefined) $set[key] = v;
  }
  const doc = await UserModel.findOneAndUpdate({ _id: uid }, { $set }, { new: true }).lean<StoredUser>();
  if (!doc) throw AppError.notFound('User');
  return toUser(doc);
}

/** Current accounts (those holding an email), by email. */
export async function listUsers(
  lookup: UserLookup,
  page: number,
  limit: number,
): Promise<{ items: User[]; total: number }> {
  const { docs, total } = await lookup.page(page, limit);
  return { items: docs.map(toUser), total };
}

/**
 * Makes the account holding this email an admin (one update by `_id`). A disabled account must be
 * enabled first: the update's filter refuses it (409), as setDisabled's refuses an admin, so no
 * account is ever both, whichever of two concurrent requests comes first.
 */
export async function makeAdmin(lookup: UserLookup, email: string): Promise<{ modifiedCount: number }> {
  const doc = await lookup.byEmail(email);
  if (!doc) throw AppError.notFound('User');
  const res = await UserModel.collection.updateOne(
    { _id: doc._id as never, role: { $ne: 'admin' }, disabled: { $ne: true } },
    { $set: { role: 'admin' } },
  );
  // Through the driver (an older record's `_id` is an ObjectId, which the model would cast).
  if (res.modifiedCount > 0) userWrites.announce({ ids: [String(doc._id)] });
  else if (res.matchedCount === 0 && doc.role !== 'admin') {
    throw AppError.conflict('This account is disabled: enable it before making it an admin.');
  }
  return { modifiedCount: res.modifiedCount };
}

/** Admins among current, enabled accounts. */
const countAdmins = () =>
  UserModel.countDocuments({ role: 'admin', email: { $exists: true }, disabled: { $ne: true } });

/**
 * Takes the admin role from the account holding this email, never from the caller and never from
 * the last admin. The caller being another admin already means the target is not the last; the
 * count after the write covers two admins demoting each other at once (each write is one
 * conditional update by `_id`, and no transaction spans the count): whoever finds no admin left
 * gives the role back and answers 409, so at least one always keeps it. An address in
 * ADMIN_EMAILS is refused: its next sign-in would make it an admin again.
 */
export async function removeAdmin(
  env: Env,
  lookup: UserLookup,
  caller: Caller,
  email: string,
): Promise<{ modifiedCount: number }> {
  if (email === caller.email) throw AppError.conflict('You cannot remove your own admin role.');
  const doc = await lookup.byEmail(email);
  if (!doc) throw AppError.notFound('User');
  if (doc.role === 'admin' && env.ADMIN_EMAILS.includes(email)) {
    throw AppError.conflict(
      'This address is in ADMIN_EMAILS, which makes it an admin again at its next sign-in: take it out of ADMIN_EMAILS first.',
    );
  }
  const id = doc._id as never;
  const res = await UserModel.collection.updateOne({ _id: id, role: 'admin' }, { $set: { role: 'user' } });
  if (res.modifiedCount === 0) return { modifiedCount: 0 };
  userWrites.announce({ ids: [String(doc._id)] });
  if ((await countAdmins()) === 0) {
    await UserModel.collection.updateOne({ _id: id }, { $set: { role: 'admin' } });
    userWrites.announce({ ids: [String(doc._id)] });
    throw AppError.conflict('The last admin cannot lose the admin role.');
  }
  return { modifiedCount: res.modifiedCount };
}

/**
 * Disables (or enables again) the account holding this email. Disabling writes our record first,
 * so its API tokens stop at their next request whatever happens after; then every session ends
 * (the sign-out of DELETE /session) and Firebase disables the account and revokes its refresh
 * tokens, so it cannot sign in either. Enabling asks Firebase first, then clears our flag. Both
 * repeat harmlessly, so a failure half-way is answered 503 and retried. Never the caller, and
 * never an admin (the role is removed first, which keeps the last admin rule in one place).
 */
export async function setDisabled(
  env: Env,
  lookup: UserLookup,
  caller: Caller,
  email: string,
  disabled: boolean,
): Promise<User> {
  if (email === caller.email) throw AppError.conflict('You cannot disable your own account.');
  const doc = await lookup.byEmail(email);
  if (!doc) throw AppError.notFound('User');
  if (typeof doc._id !== 'string') {
    throw new AppError(
      'NOT_FOUND',
      'No account has signed in with this address yet, so it cannot be disabled.',
    );
  }
  const uid = doc._id;
  const provider = async (step: () => Promise<unknown>) => {
    try {
      await step();
    } catch (err) {
      // Gone from Firebase: nothing there can sign in, so our record is all that matters.
      if ((err as { code?: string }).code === 'auth/user-not-found') return;
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'The auth provider could not be reached to change this account; try again.',
      );
    }
  };
  if (disabled) {
    const res = await UserModel.updateOne({ _id: uid, role: { $ne: 'admin' } }, { $set: { disabled: true } });
    if (res.matchedCount === 0) {
      throw AppError.conflict('This account is an admin: remove the admin role before disabling it.');
    }
    const epoch = await recordSignOut(uid, Date.now);
    await provider(() => firebaseAuth(env).updateUser(uid, { disabled: true }));
    await provider(() => firebaseAuth(env).revokeRefreshTokens(uid));
    // As a sign-out does: a sign-in after enabling is never refused for sharing its second.
    if (epoch !== null) await pastSecond(epoch, Date.now);
  } else {
    await provider(() => firebaseAuth(env).updateUser(uid, { disabled: false }));
    await UserModel.updateOne({ _id: uid }, { $unset: { disabled: 1 } });
  }
  const current = await UserModel.findById(uid).lean<StoredUser>();
  if (!current) throw AppError.notFound('User');
  return toUser(current);
}
