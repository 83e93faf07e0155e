import type { ProfileUpdate, TokenResponse, User } from '@motoparts/contracts';
import type { UserRecord } from 'firebase-admin/auth';
import type { Caller } from '../http/context';
import type { Env } from '../lib/env';
import { AppError } from '../lib/app-error';
import { getFirebaseAccount, verifyFirebaseIdToken } from '../lib/firebase';
import type { Logger } from '../lib/logger';
import { signApiToken } from '../lib/tokens';
import { OrderModel } from '../orders/model';
import { noteCustomerOrders } from '../orders/service';
import { ReviewModel } from '../reviews/model';
import { UserModel, type UserDoc } from './model';

type StoredUser = UserDoc & { _id: unknown };

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
  };
}

/** The account that holds this email now (an earlier account with the address has let it go). */
async function byEmail(email: string): Promise<StoredUser | null> {
  return UserModel.findOne({ email }).lean<StoredUser>();
}

/** The signed-in account behind an API token, or null when it no longer exists. */
export async function loadCaller(uid: string): Promise<(Caller & { sessionEpoch: number }) | null> {
  const doc = await UserModel.findById(uid).lean<StoredUser>();
  if (!doc?.email) return null;
  return {
    uid,
    email: doc.email,
    name: doc.name ?? '',
    admin: doc.role === 'admin',
    sessionEpoch: doc.sessionEpoch ?? 0,
  };
}

/** Admin status of the account holding this email, from the database (never from a token). */
export async function isAdmin(email: string): Promise<boolean> {
  return (await byEmail(email))?.role === 'admin';
}

/**
 * Records written before accounts were keyed by uid (ObjectId `_id`, seeded or older) belong to
 * whoever first signs in with that verified-by-Firebase address: its orders and reviews are
 * stamped with the uid, then the record moves to `_id = uid`. The claim runs while no record has
 * that `_id`, so the record moves last: a crash anywhere before leaves the claim to the next
 * exchange, which repeats every step harmlessly (insert first, delete second).
 */
async function claimLegacyRecord(uid: string, email: string): Promise<void> {
  const legacyOrders = await OrderModel.find({ user: email, uid: { $exists: false } }, { _id: 1 }).lean();
  if (legacyOrders.length > 0) {
    const ids = legacyOrders.map((o) => String(o._id));
    // Listed first, stamped second: the customer's list may hold an id a little early, never miss one.
    await noteCustomerOrders(uid, ids);
    await OrderModel.updateMany({ _id: { $in: ids }, uid: { $exists: false } }, { $set: { uid } });
  }
  await ReviewModel.updateMany({ email, uid: { $exists: false } }, { $set: { uid } });
  const legacy = await UserModel.collection.findOne({ email, _id: { $type: 'objectId' } });
  if (legacy) {
    const { _id: legacyId, ...fields } = legacy;
    const exists = await UserModel.exists({ _id: uid });
    if (!exists) await UserModel.collection.insertOne({ ...fields, _id: uid } as never);
    await UserModel.collection.deleteOne({ _id: legacyId });
  }
}

/**
 * Another account (deleted, or one whose address changed) still holds this email: it lets go of
 * it, so the email is unique among current accounts and the newcomer inherits nothing.
 */
async function releaseEmail(uid: string, email: string): Promise<void> {
  await UserModel.updateMany(
    { email, _id: { $ne: uid, $type: 'string' } },
    { $unset: { email: 1 }, $set: { formerEmail: email } },
  );
}

/**
 * Creates or refreshes the account's record from Firebase. Emails listed in ADMIN_EMAILS become
 * admins when Firebase says the address is verified (the emulator cannot verify addresses, so
 * there the list applies as is, with a log line); nobody else gets a role from here.
 */
export async function syncUser(
  env: Env,
  log: Logger,
  account: UserRecord,
  email: string,
): Promise<StoredUser> {
  const uid = account.uid;
  const name = (account.displayName ?? '').trim().slice(0, 120);
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
  await releaseEmail(uid, email);
  if (!(await UserModel.exists({ _id: uid }))) await claimLegacyRecord(uid, email);
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
  idToken: string,
  email: string,
  limitAccount: (uid: string) => Promise<void>,
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
  const doc = await syncUser(env, log, account, accountEmail);
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

/** Sign-out: every API token issued to this account so far stops working. */
export async function endSessions(uid: string): Promise<void> {
  await UserModel.updateOne({ _id: uid }, { $inc: { sessionEpoch: 1 } });
}

/** The caller's own record, or (for admins) the record of the account holding `email`. */
export async function getUser(caller: Caller, email: string): Promise<User> {
  const doc =
    caller.email === email ? await UserModel.findById(caller.uid).lean<StoredUser>() : await byEmail(email);
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
export async function listUsers(page: number, limit: number): Promise<{ items: User[]; total: number }> {
  const current = { email: { $exists: true } };
  const [docs, total] = await Promise.all([
    UserModel.find(current)
      .sort({ email: 1 })
      .skip((page - 1) * limit)
      .limit(limit)
      .lean<StoredUser[]>(),
    UserModel.countDocuments(current),
  ]);
  return { items: docs.map(toUser), total };
}

/** The uid of the account holding this email now, or null. */
export async function uidOf(email: string): Promise<string | null> {
  const doc = await byEmail(email);
  return doc && typeof doc._id === 'string' ? doc._id : null;
}

export async function makeAdmin(email: string): Promise<{ modifiedCount: number }> {
  const res = await UserModel.updateOne({ email, role: { $ne: 'admin' } }, { $set: { role: 'admin' } });
  if (res.matchedCount === 0 && !(await UserModel.exists({ email }))) throw AppError.notFound('User');
  return { modifiedCount: res.modifiedCount };
}
