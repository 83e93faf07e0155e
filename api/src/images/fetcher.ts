import dns, { type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { AppError } from '../lib/app-error';
import { MAX_IMAGE_BYTES } from './process';

/** Redirects followed at most, each one checked like the first address. */
export const MAX_REDIRECTS = 3;

export interface FetchOptions {
  /** The whole fetch, redirects included, ends after this (10 s). */
  timeoutMs: number;
  /**
   * Names that resolve to a fixed address which then counts as public (the tests' one local
   * server). Empty outside NODE_ENV=test (lib/env.ts `imageFetchTestHosts`).
   */
  testHosts?: ReadonlyMap<string, string>;
}

/** A refusal of an outside photo address: a 400 saying why. */
export const refused = (url: string, why: string): AppError =>
  AppError.badRequest(`The photo at ${url} could not be fetched: ${why}.`, { field: 'img' });

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The system's lookup, except for the test names (IMAGE_FETCH_TEST_HOSTS), which resolve to their
 * fixed address. request-filtering-agent wraps it: every address of the answer must be public
 * (ipaddr.js `unicast`: not loopback, private, link-local such as the 169.254.169.254 metadata
 * service, CGNAT, multicast, reserved, IPv6 unique-local, link-local or IPv4-mapped), and the
 * socket connects to an address of that same answer, so a second resolution cannot swap in
 * another one (DNS rebinding). The test addresses are its allow list.
 */
function testAwareLookup(testHosts: ReadonlyMap<string, string>) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    const fixed = testHosts.get(hostname.toLowerCase());
    if (!fixed) {
      dns.lookup(hostname, { ...options, all: options.all === true }, callback as never);
      return;
    }
    const family = net.isIP(fixed);
    if (options.all) callback(null, [{ address: fixed, family }]);
    else callback(null, fixed, family);
  };
}

/** Reads at most MAX_IMAGE_BYTES of a response; more is a refusal, and the rest is never read. */
function readLimited(res: IncomingMessage, url: string): Promise<Buffer> {
  const declared = Number(res.headers['content-length'] ?? NaN);
  if (declared > MAX_IMAGE_BYTES) {
    res.destroy();
    return Promise.reject(refused(url, `it is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_IMAGE_BYTES) {
        // Refused first: destroying the response emits its own errors, which then change nothing.
        reject(refused(url, `it is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`));
        res.destroy();
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', (err) => reject(err));
    res.on('aborted', () => reject(new Error('the connection was closed')));
  });
}

/** Why a connection failed, in words for the 400. */
function reasonOf(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  // request-filtering-agent's refusal: "DNS lookup <address>(…host:<name>) is not allowed. …".
  const denied = /is not allowed/i.test(e.message) ? /lookup ([^\s(]+)\(/i.exec(e.message) : null;
  if (denied) return `it leads to ${denied[1]}, which is not a public address`;
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return 'its host name does not resolve';
  if (e.code === 'ECONNREFUSED') return 'its server refused the connection';
  return e.message;
}

/**
 * Fetches an outside photo for re-hosting: http or https only, every address public (checked by
 * request-filtering-agent on each connection, redirects included, literal addresses too), at most MAX_REDIRECTS redirects, `timeoutMs` for everything and
 * MAX_IMAGE_BYTES. Every refusal is a 400 naming the reason.
 */
export async function fetchOutsideImage(
  rawUrl: string,
  { timeoutMs, testHosts = new Map() }: FetchOptions,
): Promise<Buffer> {
  const allowed = [...testHosts.values()];
  const agents = {
    'http:': new RequestFilteringHttpAgent({ allowIPAddressList: allowed, keepAlive: false }),
    'https:': new RequestFilteringHttpsAgent({ allowIPAddressList: allowed, keepAlive: false }),
  };
  const lookup = testAwareLookup(testHosts);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw refused(rawUrl, 'it is not a URL');
    }
    for (let hop = 0; ; hop += 1) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw refused(rawUrl, `only http and https addresses can be fetched, not ${url.protocol}`);
      }
      if (url.username || url.password)
        throw refused(rawUrl, 'addresses with a user name or password are not fetched');
      const res = await new Promise<IncomingMessage>((resolve, reject) => {
        const get = url.protocol === 'https:' ? https.get : http.get;
        const req = get(url, {
          agent: agents[url.protocol as 'http:' | 'https:'],
          lookup: lookup as unknown as typeof dns.lookup,
          signal: controller.signal,
          headers: {
            accept: 'image/webp,image/png,image/jpeg;q=0.9',
            'user-agent': 'MotoParts-photo-fetcher',
          },
        });
        req.on('response', resolve);
        req.on('error', reject);
      }).catch((err: unknown) => {
        if (err instanceof AppError) throw err;
        if (controller.signal.aborted)
          throw refused(rawUrl, `it did not answer within ${timeoutMs / 1000} s`);
        throw refused(rawUrl, reasonOf(err));
      });
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        if (hop >= MAX_REDIRECTS) throw refused(rawUrl, `it redirects more than ${MAX_REDIRECTS} times`);
        url = new URL(res.headers.location, url);
        continue;
      }
      if (status !== 200) {
        res.resume();
        throw refused(rawUrl, `its server answered ${status}`);
      }
      return await readLimited(res, rawUrl).catch((err: unknown) => {
        if (err instanceof AppError) throw err;
        if (controller.signal.aborted)
          throw refused(rawUrl, `it did not arrive within ${timeoutMs / 1000} s`);
        throw refused(rawUrl, reasonOf(err));
      });
    }
  } finally {
    clearTimeout(timer);
    agents['http:'].destroy();
    agents['https:'].destroy();
  }
}
