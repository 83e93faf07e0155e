/* global db, print -- mongosh globals: this file runs in the mongo image's shell, not in Node. */
// Run by the mongo image's entrypoint once, on the first start with an empty data volume, as the
// root user: creates the API's own user, limited to reading and writing the shop's database. Its
// password is the compose secret MOTOPARTS_DB_PASSWORD_FILE names (one trailing newline ignored),
// the one the API's MONGODB_URI holds.
const fs = require('fs');

const file = process.env.MOTOPARTS_DB_PASSWORD_FILE;
if (!file) throw new Error('MOTOPARTS_DB_PASSWORD_FILE is not set');
const password = fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
if (!password) throw new Error(`MOTOPARTS_DB_PASSWORD_FILE names an empty file (${file})`);
db.getSiblingDB('motoparts').createUser({
  user: 'motoparts',
  pwd: password,
  roles: [{ role: 'readWrite', db: 'motoparts' }],
});
print('created the motoparts database user');
