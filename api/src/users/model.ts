import { Schema, model, type InferSchemaType } from 'mongoose';
import { writeFeed } from '../lib/write-feed';
import { ROLES } from '@motoparts/contracts';

/**
 * A person is their Firebase account: the record's `_id` is the Firebase uid, so the lookup done
 * on every signed-in request is an exact `_id` match (the one filter FerretDB pushes down) and
 * two accounts can never share a record. The email is an attribute copied from Firebase at each
 * token exchange. Records written before this keying have an ObjectId `_id` and are claimed by
 * email at their owner's first exchange (users/service.ts).
 */
const userSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** Unset when a newer account took the address (the old account keeps it as `formerEmail`). */
    email: { type: String, lowercase: true, trim: true },
    formerEmail: { type: String },
    emailVerified: { type: Boolean, default: false },
    name: { type: String, default: '' },
    role: { type: String, enum: ROLES, required: true, default: 'user' },
    education: { type: String, default: '' },
    location: { type: String, default: '' },
    phone: { type: String, default: '' },
    /** Where the last checkout was delivered: offered again at the next one. */
    address: { type: String, default: '' },
    linkedin: { type: String, default: '' },
    /**
     * The Unix second of the account's last sign-out (0, or the small count an earlier version
     * kept, while it has not signed out since). API tokens carry the value they were issued with,
     * and the token exchange refuses a Firebase ID token issued in or before it (users/service.ts).
     */
    sessionEpoch: { type: Number, default: 0 },
    /**
     * Set by an admin (users/service.ts `setDisabled`), with Firebase's own `disabled`: the
     * account's API tokens stop at their next request and it cannot sign in until enabled again.
     */
    disabled: { type: Boolean },
  },
  { timestamps: true, strict: 'throw', versionKey: false },
);
// Lookups by email, and the admin's list by email (with the `_id` tie-break of a stable page).
userSchema.index({ email: 1, _id: 1 });

/**
 * Every write to the users, for what is kept in memory about them (users/lookup.ts,
 * users/callers.ts): a write naming one `_id` changed that record only (an upsert too), any
 * other write may have changed any record.
 */
export const userWrites = writeFeed(userSchema, ({ filter }) =>
  typeof filter._id === 'string' ? { ids: [filter._id] } : 'all',
);

export type UserDoc = InferSchemaType<typeof userSchema>;
export const UserModel = model('User', userSchema);
