import { Schema, model, type InferSchemaType, type Types } from 'mongoose';
import { ROLES } from '@motoparts/contracts';

const userSchema = new Schema(
  {
    email: { type: String, required: true, lowercase: true, trim: true },
    name: { type: String, default: '' },
    role: { type: String, enum: ROLES, required: true, default: 'user' },
    education: { type: String, default: '' },
    location: { type: String, default: '' },
    phone: { type: String, default: '' },
    linkedin: { type: String, default: '' },
  },
  { timestamps: true, strict: 'throw', versionKey: false },
);
userSchema.index({ email: 1 }, { unique: true });

export type UserDoc = InferSchemaType<typeof userSchema> & { _id: Types.ObjectId };
export const UserModel = model('User', userSchema);
