import { Schema, model } from 'mongoose';

/**
 * One counter per (remote, version) of the front ends' load failures: `_id` is `<remote>@<version>`,
 * so a report is one upsert by `_id`, and the collection holds at most CLIENT_ERRORS_MAX documents
 * (client-errors/service.ts drops the least recently seen beyond that).
 */
const clientErrorSchema = new Schema(
  {
    _id: { type: String, required: true },
    remote: { type: String, required: true },
    version: { type: String, required: true },
    count: { type: Number, required: true, default: 0 },
    /** The latest report's page address and message: enough to start looking, bounded in size. */
    lastUrl: { type: String, default: '' },
    lastMessage: { type: String, default: '' },
    lastAt: { type: Date, required: true },
  },
  { strict: 'throw', versionKey: false },
);

export const ClientErrorModel = model('ClientError', clientErrorSchema, 'client_errors');
