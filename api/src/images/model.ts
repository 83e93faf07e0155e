import { Schema, model, type MongooseQueryMiddleware, type Query } from 'mongoose';

/**
 * The hosted photos: one document per stored file, `_id` its name without `.webp` (`<id>` for the
 * full-size WebP, `<id>-400` for the small one), `data` its bytes. A file is at most a few
 * hundred KB (1600 px WebP), far below the 16 MB document limit of MongoDB and FerretDB, so a
 * file is one document read by `_id` (the one lookup the embedded FerretDB answers from an index)
 * rather than GridFS chunks, whose reads by `files_id` it would answer with a scan. Content-
 * addressed, so files are written once and never change.
 */
const imageSchema = new Schema(
  {
    _id: { type: String, required: true },
    data: { type: Buffer, required: true },
    width: { type: Number, required: true },
    height: { type: Number, required: true },
    createdAt: { type: Date, required: true },
  },
  { strict: 'throw', versionKey: false },
);

export const ImageModel = model('Image', imageSchema);

/**
 * Fields that the photo re-hosting job (images/jobs.ts) keeps on a document whose `img` is still
 * an outside URL: `imgClaimUntil` while one API process is fetching it (another process leaves it
 * alone until then), `imgFailed` the reason it could not be fetched (the job does not try again
 * until `img` changes).
 */
export const rehostFields = {
  imgClaimUntil: { type: Date },
  imgFailed: { type: String },
} as const;

const UPDATES: MongooseQueryMiddleware[] = ['updateOne', 'updateMany', 'findOneAndUpdate'];

/**
 * A write that sets a new `img` clears the failure recorded for the old one, whoever writes it
 * (the API's routes, an import, a script), so the job tries the new address.
 */
export function clearRehostFailureOnNewImg(schema: Schema): void {
  schema.pre(UPDATES, function (this: Query<unknown, unknown>) {
    const update = this.getUpdate() as Record<string, Record<string, unknown> | undefined> | null;
    if (!update || Array.isArray(update)) return;
    const set = update.$set ?? {};
    const img = set.img ?? (update as Record<string, unknown>).img;
    if (img === undefined || set.imgFailed !== undefined) return;
    update.$unset = { ...(update.$unset ?? {}), imgFailed: 1 };
  });
}
