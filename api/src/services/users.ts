import type { ProfileUpdate, TokenResponse, User } from '@motoparts/contracts';
import type { Env } from '../env';
import { AppError } from '../errors';
import { verifyFirebaseIdToken } from '../lib/firebase';
import { signApiToken } from '../lib/tokens';
import { UserModel, type UserDoc } from '../models/user';

export function toUser(doc: UserDoc): User {
  return {
    _id: String(doc._id),
    email: doc.email,
    name: doc.name ?? '',
    role: doc.role,
    education: doc.education ?? '',
    location: doc.location ?? '',
    phone: doc.phone ?? '',
    linkedin: doc.linkedin ?? '',
  };
}

/** Admin status comes from the database, never from the client (nor from a possibly stale token). */
export async function isAdmin(email: string): Promise<boolean> {
  const doc = await UserModel.findOne({ email }, { role: 1 }).lean<Pick<UserDoc, 'role'>>();
  return doc?.role === 'admin';
}

/**
 * Creates or refreshes the user record (unique by email). Emails listed in ADMIN_EMAILS become
 * admins; nobody else gets a role from here.
 */
export async function upsertUser(env: Env, email: string, name: string): Promise<UserDoc> {
  const bootstrapAdmin = env.ADMIN_EMAILS.includes(email);
  const update = {
    $setOnInsert: { email, ...(bootstrapAdmin ? {} : { role: 'user' }) },
    $set: { ...(name ? { name } : {}), ...(bootstrapAdmin ? { role: 'admin' } : {}) },
  };
  for (let attempt = 0; ; attempt++) {
    try {
      const doc = await UserModel.findOneAndUpdate({ email }, update, {
        upsert: true,
        new: true,
      }).lean<UserDoc>();
      if (!doc) throw new Error('upsert returned nothing');
      return doc;
    } catch (err) {
      // Two first sign-ins racing on the unique index: the loser simply retries as an update.
      if ((err as { code?: unknown }).code !== 11000 || attempt > 2) throw err;
    }
  }
}

/** PUT /user/:email — trades a verified Firebase ID token for our API token. */
export async function exchangeToken(env: Env, idToken: string, email: string): Promise<TokenResponse> {
  const decoded = await verifyFirebaseIdToken(env, idToken);
  const tokenEmail = decoded.email?.toLowerCase();
  if (!tokenEmail) throw AppError.unauthenticated('The Firebase account has no email address.');
  if (tokenEmail !== email) throw AppError.forbidden('The signed-in account does not match this email.');
  const name = typeof decoded.name === 'string' ? decoded.name.trim().slice(0, 120) : '';
  const doc = await upsertUser(env, email, name);
  const admin = doc.role === 'admin';
  return { token: signApiToken(env, { email, name: doc.name ?? name, admin }), admin };
}

export async function getUser(email: string): Promise<User> {
  const doc = await UserModel.findOne({ email }).lean<UserDoc>();
  if (!doc) throw AppError.notFound('User');
  return toUser(doc);
}

export async function updateProfile(email: string, fields: ProfileUpdate): Promise<User> {
  const $set: Record<string, string> = {};
  for (const key of ['education', 'location', 'phone', 'linkedin'] as const) {
    const v = fields[key];
    if (v !== undefined) $set[key] = v;
  }
  const doc = await UserModel.findOneAndUpdate({ email }, { $set }, { new: true }).lean<UserDoc>();
  if (!doc) throw AppError.notFound('User');
  return toUser(doc);
}

export async function listUsers(page: number, limit: number): Promise<{ items: User[]; total: number }> {
  const [docs, total] = await Promise.all([
    UserModel.find({})
      .sort({ email: 1 })
      .skip((page - 1) * limit)
      .limit(limit)
      .lean<UserDoc[]>(),
    UserModel.countDocuments({}),
  ]);
  return { items: docs.map(toUser), total };
}

export async function makeAdmin(email: string): Promise<{ modifiedCount: number }> {
  const res = await UserModel.updateOne({ email, role: { $ne: 'admin' } }, { $set: { role: 'admin' } });
  if (res.matchedCount === 0 && !(await UserModel.exists({ email }))) throw AppError.notFound('User');
  return { modifiedCount: res.modifiedCount };
}
