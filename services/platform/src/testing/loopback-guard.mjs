// Preloaded into a platform process by a test (`node --import`): any connection or name lookup
// for a host other than loopback is refused and reported on stderr as `NETWORK ATTEMPT <host>`,
// so a test can prove that `npm start` with its defaults needs no network.
import dns from 'node:dns';
import net from 'node:net';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);

function refuse(host) {
  process.stderr.write(`NETWORK ATTEMPT ${host}\n`);
  return new Error(`network access to ${host} refused by the test's loopback guard`);
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  // `net.connect` hands its normalised arguments over as one array: [options, callback].
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = typeof first === 'object' && first !== null ? first : { port: first, host: args[1] };
  const host = options.path ? undefined : (options.host ?? 'localhost');
  if (host !== undefined && !LOOPBACK.has(host)) {
    const error = refuse(host);
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return connect.apply(this, args);
};

const lookup = dns.lookup;
dns.lookup = function guardedLookup(host, ...rest) {
  if (!LOOPBACK.has(host)) {
    const callback = rest[rest.length - 1];
    const error = refuse(host);
    if (typeof callback === 'function') process.nextTick(() => callback(error));
    return undefined;
  }
  return lookup.call(this, host, ...rest);
};
const promisesLookup = dns.promises.lookup;
dns.promises.lookup = async function guardedPromisesLookup(host, ...rest) {
  if (!LOOPBACK.has(host)) throw refuse(host);
  return promisesLookup.call(this, host, ...rest);
};
