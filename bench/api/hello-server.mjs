// Baselines: a bare Koa + @koa/router hello route, and (given SAME_BYTES_FILE, a map of route
// pattern → one cached answer's headers and body) bare routes that send those exact bytes whatever
// the query or id: the ceiling for that payload on this machine. No middleware, no database.
import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import Koa from 'koa';

const app = new Koa();
const router = new Router();
router.get('/hello', (ctx) => {
  ctx.body = { hello: 'world' };
});
if (process.env.SAME_BYTES_FILE) {
  const answers = JSON.parse(readFileSync(process.env.SAME_BYTES_FILE, 'utf8'));
  for (const [route, { headers, body }] of Object.entries(answers)) {
    const bytes = Buffer.from(body, 'base64');
    router.get(route, (ctx) => {
      ctx.set(headers);
      ctx.body = bytes;
    });
  }
}
app.use(router.routes());
app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
