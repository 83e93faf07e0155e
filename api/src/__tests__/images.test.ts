import type { HostedImage, Part, Review } from '@motoparts/contracts';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { startImageRehosting, rehostPass } from '../images/jobs';
import { ImageModel } from '../images/model';
import { createLogger } from '../lib/logger';
import { PartModel } from '../parts/model';
import { ReviewModel } from '../reviews/model';
import { account, cast, uniqueEmail, type Account } from './support/auth';
import { call, startTestApp, type TestApp } from './support/harness';

type Err = { error: { code: string; message: string } };

// The fetcher's test resolver: this name resolves to 127.0.0.2, which then counts as public. The
// same server is also reachable as 127.0.0.1 and "localhost", which must stay refused.
const PUBLIC_NAME = 'photos.test';
const PUBLIC_ADDRESS = '127.0.0.2';

let t: TestApp;
let customer: Account;
let admin: Account;
const adminEmail = uniqueEmail('admin');

// ---------- test photos, made with sharp ----------

const noise = (width: number, height: number) => {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 7919 + (i >> 5) * 104729) & 0xff;
  return sharp(pixels, { raw: { width, height, channels: 3 } });
};
const pngPhoto = () => noise(2400, 1200).png().toBuffer();
const jpegWithExif = () =>
  noise(1000, 1800)
    .jpeg({ quality: 80 })
    .withExif({ IFD0: { Copyright: 'secret-exif-owner', Artist: 'secret-exif-artist' } })
    .toBuffer();
const webpPhoto = () => noise(800, 600).webp().toBuffer();
const tinyPng = (shade: number) =>
  sharp({ create: { width: 20, height: 10, channels: 3, background: { r: shade, g: 10, b: 10 } } })
    .png()
    .toBuffer();

/** Uploads as the customer, or with the token given (`null`: none). */
const upload = (bytes: Buffer, type: string, token: string | null = customer.token) =>
  call<HostedImage & Err>(t.base, 'POST', '/images', {
    token: token ?? undefined,
    raw: bytes,
    headers: { 'content-type': type },
  });

const fetchBytes = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(t.base + path, { headers });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
};

const isWebp = (b: Buffer) =>
  b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP';

async function expectHostedWebp(hosted: HostedImage, maxSide: number) {
  expect(hosted.url).toMatch(/^\/uploads\/[0-9a-f]{32}\.webp$/);
  expect(hosted.thumbUrl).toBe(hosted.url.replace('.webp', '-400.webp'));
  const full = await fetchBytes(hosted.url);
  expect(full.res.status).toBe(200);
  expect(isWebp(full.bytes)).toBe(true);
  const meta = await sharp(full.bytes).metadata();
  expect(meta.format).toBe('webp');
  expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(maxSide);
  expect({ width: meta.width, height: meta.height }).toEqual({ width: hosted.width, height: hosted.height });
  expect(meta.exif).toBeUndefined();
  expect(meta.icc).toBeUndefined();
  const thumb = await fetchBytes(hosted.thumbUrl);
  expect(isWebp(thumb.bytes)).toBe(true);
  const thumbMeta = await sharp(thumb.bytes).metadata();
  expect(Math.max(thumbMeta.width ?? 0, thumbMeta.height ?? 0)).toBe(Math.min(400, maxSide));
  return { full: full.bytes, thumb: thumb.bytes };
}

// ---------- the outside photo server the fetcher is pointed at ----------

let photoPort = 0;
let photoServer: http.Server;
const hits = new Map<string, number>();
const outside = (path: string, host = PUBLIC_NAME) => `http://${host}:${photoPort}${path}`;
let jpeg: Buffer;

function photoRoutes(req: IncomingMessage, res: ServerResponse) {
  const path = req.url ?? '/';
  hits.set(path, (hits.get(path) ?? 0) + 1);
  const redirect = (to: string) => {
    res.writeHead(302, { location: to });
    res.end();
  };
  if (path.startsWith('/photo')) {
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length });
    res.end(jpeg);
  } else if (path === '/to-loopback') redirect(`http://127.0.0.1:${photoPort}/photo-loopback.jpg`);
  else if (path === '/to-metadata') redirect('http://169.254.169.254/latest/meta-data/');
  else if (path === '/to-file') redirect('file:///etc/passwd');
  else if (path === '/to-photo') redirect('/photo-after-redirect.jpg');
  else if (/^\/chain\d$/.test(path)) redirect(`/chain${Number(path.slice(6)) + 1}`);
  else if (path === '/big') {
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': 6 * 1024 * 1024 });
    res.end(Buffer.alloc(6 * 1024 * 1024));
  } else if (path === '/big-undeclared') {
    res.writeHead(200, { 'content-type': 'image/jpeg' });
    const chunk = Buffer.alloc(256 * 1024, 0xff);
    let sent = 0;
    const more = () => {
      while (sent < 32 * 1024 * 1024 && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
    res.on('close', () => hits.set('/big-undeclared:sent', sent));
  } else if (path === '/slow') {
    // Headers never come: the fetcher's time limit must end it.
  } else if (path === '/text') {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end('this is text, not a photo');
  } else {
    res.writeHead(404);
    res.end();
  }
}

const listen = (server: http.Server, host: string, port = 0) =>
  new Promise<number>((resolve) =>
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port)),
  );

let loopbackServer: http.Server;

beforeAll(async () => {
  jpeg = await noise(640, 480).jpeg().toBuffer();
  photoServer = http.createServer(photoRoutes);
  photoPort = await listen(photoServer, PUBLIC_ADDRESS);
  // The same routes on 127.0.0.1 (the same port), for the loopback refusals.
  loopbackServer = http.createServer(photoRoutes);
  await listen(loopbackServer, '127.0.0.1', photoPort);
  t = await startTestApp('images', {
    ADMIN_EMAILS: adminEmail,
    IMAGE_FETCH_TEST_HOSTS: `${PUBLIC_NAME}=${PUBLIC_ADDRESS}`,
    IMAGE_FETCH_TIMEOUT_MS: '1500',
    RATE_LIMIT_IMAGES: '20/3600',
    RATE_LIMIT_REVIEW: '0/60',
  });
  ({ customer, admin } = await cast(t.base, adminEmail));
});
afterAll(async () => {
  photoServer.closeAllConnections();
  loopbackServer.closeAllConnections();
  await new Promise((r) => photoServer.close(r));
  await new Promise((r) => loopbackServer.close(r));
  await t.close();
});

describe('POST /images', () => {
  it('turns a PNG into a WebP of at most 1600 px and a 400 px one, served with immutable headers', async () => {
    const res = await upload(await pngPhoto(), 'image/png');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ width: 1600, height: 800 });
    await expectHostedWebp(res.body, 1600);

    const { res: served } = await fetchBytes(res.body.url);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = served.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await fetchBytes(res.body.url, { 'if-none-match': etag });
    expect(again.res.status).toBe(304);
    expect(again.bytes.length).toBe(0);
  });

  it('turns a JPEG with EXIF into a WebP without it (oriented, metadata gone)', async () => {
    const input = await jpegWithExif();
    expect((await sharp(input).metadata()).exif).toBeDefined();
    const res = await upload(input, 'image/jpeg');
    expect(res.status).toBe(201);
    const { full, thumb } = await expectHostedWebp(res.body, 1600);
    for (const bytes of [full, thumb]) {
      expect(bytes.includes('secret-exif')).toBe(false);
      expect(bytes.includes('EXIF')).toBe(false);
    }
  });

  it('keeps a small WebP at its own size (never enlarged)', async () => {
    const res = await upload(await webpPhoto(), 'image/webp');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ width: 800, height: 600 });
    await expectHostedWebp(res.body, 800);
  });

  it('answers the same URLs for the same photo and stores it once', async () => {
    const bytes = await tinyPng(200);
    const first = await upload(bytes, 'image/png', admin.token);
    const before = await ImageModel.countDocuments();
    const second = await upload(bytes, 'image/png', admin.token);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(await ImageModel.countDocuments()).toBe(before);
  });

  it('sniffs the bytes: an SVG, text or a PDF labelled image/png is a 415 and nothing is stored', async () => {
    const before = await ImageModel.countDocuments();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="9" height="9"/></svg>',
    );
    for (const bytes of [svg, Buffer.from('just some text'), Buffer.from('%PDF-1.7\n%âãÏÓ')]) {
      const res = await upload(bytes, 'image/png');
      expect({ status: res.status, code: res.body.error.code }).toEqual({
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
    }
    // A PNG signature on a broken body: decoding fails, still a 415.
    const broken = Buffer.concat([(await tinyPng(5)).subarray(0, 40), Buffer.alloc(100)]);
    expect((await upload(broken, 'image/png')).status).toBe(415);
    // A real photo under a type the route does not take.
    const wrongType = await upload(await tinyPng(6), 'image/svg+xml');
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error.message).toMatch(/image\/jpeg, image\/png or image\/webp/);
    expect(await ImageModel.countDocuments()).toBe(before);
  });

  it('refuses anonymous uploads (401) before reading them', async () => {
    const res = await upload(await tinyPng(7), 'image/png', null);
    expect(res.status).toBe(401);
    const forged = await upload(await tinyPng(7), 'image/png', 'not-a-token');
    expect(forged.status).toBe(401);
  });

  /** Sends `total` bytes (declared or chunked) until the server answers; what was sent by then. */
  function sendLarge(
    total: number,
    declare: boolean,
  ): Promise<{ status: number; body: string; sent: number }> {
    return new Promise((resolve, reject) => {
      const url = new URL(`${t.base}/images`);
      let sent = 0;
      let answered = false;
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: '/images',
          method: 'POST',
          headers: {
            authorization: `Bearer ${customer.token}`,
            'content-type': 'image/jpeg',
            ...(declare ? { 'content-length': total } : { 'transfer-encoding': 'chunked' }),
          },
        },
        (res) => {
          answered = true;
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sent }));
        },
      );
      req.on('error', (err) => {
        if (!answered) reject(err);
      });
      const chunk = Buffer.alloc(64 * 1024, 0xff);
      chunk[0] = 0xff;
      chunk[1] = 0xd8;
      chunk[2] = 0xff;
      const pump = () => {
        while (!answered && sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!answered) req.end();
      };
      pump();
    });
  }

  it('refuses a body over 5 MB with a 413 without reading it all (declared or streamed)', async () => {
    const total = 64 * 1024 * 1024;
    const declared = await sendLarge(total, true);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    // Answered before the client could send the rest: the server never waited for 64 MB.
    expect(declared.sent).toBeLessThan(total);

    const streamed = await sendLarge(total, false);
    expect(streamed.status).toBe(413);
    expect(streamed.sent).toBeLessThan(total);
    // The API is still fine afterwards.
    expect((await upload(await tinyPng(8), 'image/png')).status).toBe(201);
  });

  it('limits uploads per account (429 with Retry-After)', async () => {
    const uploader = await account(t.base, uniqueEmail('uploader'));
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1)
      statuses.push((await upload(await tinyPng(100 + i), 'image/png', uploader.token)).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(201));
    expect(statuses[20]).toBe(429);
  });
});

describe('GET /uploads/:file', () => {
  it('404s unknown and malformed names', async () => {
    for (const name of [
      '0123456789abcdef0123456789abcdef.webp',
      'nothing.webp',
      '..%2Fetc%2Fpasswd',
      'x.png',
    ]) {
      const res = await call<Err>(t.base, 'GET', `/uploads/${name}`);
      expect({ name, status: res.status }).toEqual({ name, status: 404 });
    }
  });
});

describe('outside photo addresses given to the API', () => {
  const newPart = (img: string) => ({
    name: uniqueEmail('photo part'),
    text: 'A part with an outside photo.',
    img,
    price: 5,
    qty: 1,
    availableQty: 10,
  });
  const createPart = (img: string) =>
    call<{ part: Part } & Err>(t.base, 'POST', '/parts', { token: admin.token, body: newPart(img) });

  it('fetches an allowed address once and stores the hosted path', async () => {
    const before = hits.get('/photo-allowed.jpg') ?? 0;
    const res = await createPart(outside('/photo-allowed.jpg'));
    expect(res.status).toBe(201);
    expect(res.body.part.img).toMatch(/^\/uploads\/[0-9a-f]{32}\.webp$/);
    expect(hits.get('/photo-allowed.jpg')).toBe(before + 1);
    expect((await PartModel.findById(res.body.part._id).lean())?.img).toBe(res.body.part.img);
    const served = await fetchBytes(res.body.part.img);
    expect(isWebp(served.bytes)).toBe(true);
    // One redirect to a public address is followed.
    const redirected = await createPart(outside('/to-photo'));
    expect(redirected.status).toBe(201);
    expect(hits.get('/photo-after-redirect.jpg')).toBe(1);
  });

  it('keeps the site’s own paths, and a link to a hosted file becomes its path', async () => {
    const own = await createPart('/images/parts/iridium-spark-plug.svg');
    expect(own.body.part.img).toBe('/images/parts/iridium-spark-plug.svg');
    const hosted = await upload(await tinyPng(50), 'image/png', admin.token);
    const linked = await createPart(`https://cdn.elsewhere.example${hosted.body.url}`);
    expect(linked.status).toBe(201);
    expect(linked.body.part.img).toBe(hosted.body.url);
  });

  it.each([
    ['loopback by address', () => outside('/photo-loopback.jpg', '127.0.0.1'), /not a public address/],
    ['loopback by name', () => outside('/photo-loopback.jpg', 'localhost'), /not a public address/],
    ['IPv6 loopback', () => outside('/photo.jpg', '[::1]'), /not a public address/],
    ['a private range', () => 'http://10.1.2.3/photo.jpg', /not a public address/],
    ['another private range', () => 'http://192.168.1.20/photo.jpg', /not a public address/],
    ['the metadata service', () => 'http://169.254.169.254/latest/meta-data/', /not a public address/],
    ['CGNAT', () => 'http://100.64.0.9/photo.jpg', /not a public address/],
    ['IPv6 unique-local', () => 'http://[fd00::1]/photo.jpg', /not a public address/],
    ['IPv4-mapped IPv6', () => 'http://[::ffff:127.0.0.1]/photo.jpg', /not a public address/],
    ['a redirect to loopback', () => outside('/to-loopback'), /not a public address/],
    ['a redirect to the metadata service', () => outside('/to-metadata'), /not a public address/],
    ['a redirect to a file: URL', () => outside('/to-file'), /only http and https/],
    ['more than 3 redirects', () => outside('/chain1'), /more than 3 times/],
    ['a declared body over 5 MB', () => outside('/big'), /larger than 5 MB/],
    ['an undeclared body over 5 MB', () => outside('/big-undeclared'), /larger than 5 MB/],
    ['a server too slow', () => outside('/slow'), /within 1.5 s/],
    ['text served as image/png', () => outside('/text'), /not a JPEG, PNG or WebP/],
    ['a missing photo', () => outside('/missing.jpg'), /answered 404/],
  ])('refuses %s with a 400 saying why, and writes no part', async (_what, img, why) => {
    const body = newPart(img());
    const res = await call<Err>(t.base, 'POST', '/parts', { token: admin.token, body });
    expect({ status: res.status, code: res.body.error.code }).toEqual({ status: 400, code: 'BAD_REQUEST' });
    expect(res.body.error.message).toMatch(why);
    expect(await PartModel.countDocuments({ name: body.name })).toBe(0);
  });

  it('never connected to the loopback server and read only the start of the undeclared large body', () => {
    expect(hits.get('/photo-loopback.jpg') ?? 0).toBe(0);
    expect(hits.get('/chain4')).toBe(1);
    expect(hits.get('/chain5') ?? 0).toBe(0);
    expect(hits.get('/big-undeclared:sent') ?? 0).toBeLessThan(32 * 1024 * 1024);
  });

  it('refuses non-http schemes in the field itself', async () => {
    for (const img of [
      'ftp://photos.test/a.jpg',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
    ]) {
      const res = await createPart(img);
      expect({ img, status: res.status }).toEqual({ img, status: 400 });
    }
  });

  it('hosts a review’s outside photo the same way', async () => {
    const res = await call<{ review: Review } & Err>(t.base, 'POST', '/review', {
      token: customer.token,
      body: { img: outside('/photo-review.jpg'), review: 'Hosted photo.', rating: 5 },
    });
    expect(res.status).toBe(201);
    expect(res.body.review.img).toMatch(/^\/uploads\/[0-9a-f]{32}\.webp$/);
    const refused = await call<Err>(t.base, 'POST', '/review', {
      token: customer.token,
      body: { img: 'http://169.254.169.254/latest/meta-data/', review: 'Sneaky.', rating: 5 },
    });
    expect(refused.status).toBe(400);
    expect(await ReviewModel.countDocuments({ review: 'Sneaky.' })).toBe(0);
  });

  it('an edit keeps the photo a part already has; a new outside one is hosted', async () => {
    const legacy = outside('/photo-legacy-edit.jpg');
    const doc = await PartModel.create({
      name: 'Legacy photo part',
      slug: `legacy-${Date.now()}`,
      text: 'Stored before photos were hosted.',
      img: legacy,
      priceCents: 500,
      minOrderQty: 1,
      availableQty: 5,
    });
    const edit = { name: 'Legacy photo part', text: 'Edited.', img: legacy, price: 6, qty: 1 };
    const kept = await call<Part>(t.base, 'PUT', `/parts/${String(doc._id)}`, {
      token: admin.token,
      body: edit,
    });
    expect(kept.status).toBe(200);
    expect(kept.body.img).toBe(legacy);
    expect(hits.get('/photo-legacy-edit.jpg') ?? 0).toBe(0);
    const changed = await call<Part>(t.base, 'PUT', `/parts/${String(doc._id)}`, {
      token: admin.token,
      body: { ...edit, img: outside('/photo-new-edit.jpg') },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.img).toMatch(/^\/uploads\/[0-9a-f]{32}\.webp$/);
  });
});

describe('the re-hosting job', () => {
  const logger = () => createLogger(t.env);

  it('hosts outside photos of parts and reviews once, marks failures, and retries a changed address', async () => {
    // Whatever the tests above left outside is hosted or failed first, so this pass is about these.
    while ((await rehostPass(t.env, logger())).rehosted > 0);
    const part = await PartModel.create({
      name: 'Imported part',
      slug: `imported-${Date.now()}`,
      text: 'Imported with an outside photo.',
      img: outside('/photo-job.jpg'),
      priceCents: 700,
      minOrderQty: 1,
      availableQty: 3,
    });
    const broken = await PartModel.create({
      name: 'Imported part with a private photo',
      slug: `imported-private-${Date.now()}`,
      text: 'Its photo is on a private address.',
      img: outside('/photo-job-private.jpg', '127.0.0.1'),
      priceCents: 700,
      minOrderQty: 1,
      availableQty: 3,
    });
    const review = await ReviewModel.create({
      email: 'legacy@motoparts-test.dev',
      name: 'Legacy',
      img: outside('/photo-job-review.jpg'),
      review: 'From before hosting.',
      rating: 4,
    });

    // Two passes at once (as two replicas would run them): each photo is fetched by one.
    const [a, b] = await Promise.all([rehostPass(t.env, logger()), rehostPass(t.env, logger())]);
    expect(a.rehosted + b.rehosted).toBe(2);
    expect(a.failed + b.failed).toBe(1);
    expect(hits.get('/photo-job.jpg')).toBe(1);
    expect(hits.get('/photo-job-review.jpg')).toBe(1);
    expect(hits.get('/photo-job-private.jpg') ?? 0).toBe(0);

    const hostedPart = await PartModel.findById(part._id).lean();
    expect(hostedPart?.img).toMatch(/^\/uploads\/[0-9a-f]{32}\.webp$/);
    expect(hostedPart?.imgClaimUntil).toBeUndefined();
    expect((await ReviewModel.findById(review._id).lean())?.img).toMatch(/^\/uploads\/[0-9a-f]{32}\.webp$/);
    // The catalogue follows the job's write.
    const served = await call<Part>(t.base, 'GET', `/parts/${String(part._id)}`);
    expect(served.body.img).toBe(hostedPart?.img);
    const failed = await PartModel.findById(broken._id).lean();
    expect(failed?.img).toBe(outside('/photo-job-private.jpg', '127.0.0.1'));
    expect(failed?.imgFailed).toMatch(/not a public address/);

    // Nothing left: the next pass fetches nothing and does not loop on the failure.
    expect(await rehostPass(t.env, logger())).toEqual({ rehosted: 0, failed: 0 });
    expect(hits.get('/photo-job.jpg')).toBe(1);

    // A new address clears the failure, and the next pass hosts it.
    await PartModel.updateOne({ _id: broken._id }, { $set: { img: outside('/photo-job-fixed.jpg') } });
    expect((await PartModel.findById(broken._id).lean())?.imgFailed).toBeUndefined();
    expect(await rehostPass(t.env, logger())).toEqual({ rehosted: 1, failed: 0 });
    expect((await PartModel.findById(broken._id).lean())?.img).toMatch(/^\/uploads\//);
  });

  it('runs on its own once started, and stops', async () => {
    const part = await PartModel.create({
      name: 'Part the timer hosts',
      slug: `timer-${Date.now()}`,
      text: 'Hosted by the running job.',
      img: outside('/photo-timer.jpg'),
      priceCents: 700,
      minOrderQty: 1,
      availableQty: 3,
    });
    const job = startImageRehosting(t.env, logger());
    try {
      await job.runNow();
    } finally {
      await job.stop();
    }
    expect((await PartModel.findById(part._id).lean())?.img).toMatch(/^\/uploads\//);
    expect(hits.get('/photo-timer.jpg')).toBe(1);
  });
});
