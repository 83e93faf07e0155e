// Baseline: a bare Koa + @koa/router hello route, no middleware, no database.
import Router from '@koa/router';
import Koa from 'koa';

const app = new Koa();
const router = new Router();
router.get('/hello', (ctx) => {
  ctx.body = { hello: 'world' };
});
app.use(router.routes());
app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
