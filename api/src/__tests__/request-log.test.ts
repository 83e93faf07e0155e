import { loggableUrl, MAX_LOGGED_URL } from '../http/request-log';
import { clientKey } from '../http/rate-limit';

describe('loggableUrl', () => {
  it('replaces emails in paths and queries, raw or percent-encoded', () => {
    expect(loggableUrl('/user/rider%40example.com')).toBe('/user/[email]');
    expect(loggableUrl('/order?user=Rider@Example.com&page=2')).toBe('/order?user=[email]&page=2');
    expect(loggableUrl('/userInfo/a.b+c%40d.co/x?y=1')).toBe('/userInfo/[email]/x?y=1');
    expect(loggableUrl('/parts?q=brake+pad')).toBe('/parts?q=brake+pad');
  });

  it('cuts long URLs after redacting, so an address across the cut never shows in part', () => {
    const local = 'l'.repeat(150);
    const url = `/order?pad=${'p'.repeat(150)}&user=${local}%40example.com`;
    const logged = loggableUrl(url);
    expect(logged).toBe(`/order?pad=${'p'.repeat(150)}&user=[email]`);
    expect(logged).not.toContain('lll');
    const long = loggableUrl(`/parts/${'a'.repeat(16_000)}`);
    expect(long).toHaveLength(MAX_LOGGED_URL + 1);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('clientKey', () => {
  it('keys IPv4 by address and IPv6 by its /64', () => {
    expect(clientKey('198.51.100.7')).toBe('198.51.100.7');
    expect(clientKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientKey('2001:db8:1:2::1')).toBe(clientKey('2001:0db8:0001:0002:ffff:1:2:3'));
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'));
    expect(clientKey('not an address')).toBe('not an address');
  });
});
