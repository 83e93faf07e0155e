/** A localStorage for the Node test environment. */
export class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** An unsigned JWT with these claims (the front end only reads them). */
export const jwt = (claims: object) => `${b64url({ alg: 'HS256' })}.${b64url(claims)}.signature`;

export const rider = { email: 'rider@motoparts.test', displayName: 'Road Rider', photoURL: null };
