import { ClientErrorModel } from './model';

export interface ClientErrorReport {
  remote: string;
  version: string;
  url: string;
  message: string;
}

export interface ClientErrorCount {
  remote: string;
  version: string;
  count: number;
  lastAt: string;
  lastUrl: string;
  lastMessage: string;
}

/**
 * Counts one report under its (remote, version). Anyone may report, so what is stored is bounded:
 * each counter keeps only the latest url and message (sizes bounded by the route's schema), and a
 * new counter beyond `max` pushes out the least recently seen ones. Without transactions two new
 * counters at once may both see the collection full and both trim: it never grows past `max` for
 * long, which is the point.
 */
export async function recordClientError(report: ClientErrorReport, max: number): Promise<void> {
  const now = new Date();
  const res = await ClientErrorModel.updateOne(
    { _id: `${report.remote}@${report.version}` },
    {
      $inc: { count: 1 },
      $set: { lastUrl: report.url, lastMessage: report.message, lastAt: now },
      $setOnInsert: { remote: report.remote, version: report.version },
    },
    { upsert: true },
  );
  if (res.upsertedCount === 0) return;
  const excess = (await ClientErrorModel.estimatedDocumentCount()) - max;
  if (excess <= 0) return;
  // At most `max` + a few small documents: reading them to pick the oldest is cheap.
  const oldest = await ClientErrorModel.find({}, { _id: 1 }).sort({ lastAt: 1, _id: 1 }).limit(excess).lean();
  await ClientErrorModel.deleteMany({ _id: { $in: oldest.map((d) => d._id) } });
}

/** Every counter, by remote and version. */
export async function clientErrorCounts(): Promise<ClientErrorCount[]> {
  const docs = await ClientErrorModel.find({}).sort({ remote: 1, version: 1 }).lean();
  return docs.map((d) => ({
    remote: d.remote,
    version: d.version,
    count: d.count,
    lastAt: d.lastAt.toISOString(),
    lastUrl: d.lastUrl,
    lastMessage: d.lastMessage,
  }));
}
