/* global db, print -- mongosh globals: this file runs in the mongo image's shell, not in Node. */
// Run by the mongo image's entrypoint once, on the first start with an empty data volume, as the
// root user: creates the API's own user, limited to reading and writing the shop's database.
const password = process.env.MOTOPARTS_DB_PASSWORD;
if (!password) throw new Error('MOTOPARTS_DB_PASSWORD is not set');
db.getSiblingDB('motoparts').createUser({
  user: 'motoparts',
  pwd: password,
  roles: [{ role: 'readWrite', db: 'motoparts' }],
});
print('created the motoparts database user');
