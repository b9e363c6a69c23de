// @ts-check
/**
 * Canonical JSON: the exact text that is signed (docs/receipts.md, "Canonical JSON").
 *
 * RFC 8785 (JCS) restricted to objects, arrays, strings, safe integers, true, false and null:
 * object members sorted by the UTF-16 code units of their names, no whitespace, strings escaped
 * as `JSON.stringify` escapes them. Anything else (a fraction, an integer beyond
 * Number.MAX_SAFE_INTEGER, NaN, undefined, a bigint, a function, a symbol, a Date or any other
 * non-plain object, a string holding a lone surrogate) is refused with a TypeError that names
 * where the value sits, so a signer never signs text a verifier in another language would
 * serialise differently.
 */

/** Member names that can be written after a dot in an error's path. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** A UTF-16 surrogate not part of a pair (with the `u` flag, a pair is one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The canonical JSON text of `value`.
 *
 * @param {unknown} value
 * @param {string} [name] how error messages call the value (`receipt` gives `receipt.pnlCents …`)
 * @returns {string}
 * @throws {TypeError} naming the path of the first value that has no canonical form
 */
export function canonicalJson(value, name = 'value') {
  return write(value, name);
}

/**
 * @param {unknown} value
 * @param {string} path
 * @returns {string}
 */
function write(value, path) {
  switch (typeof value) {
    case 'string':
      if (LONE_SURROGATE.test(value)) throw new TypeError(`${path} contains a lone UTF-16 surrogate`);
      return JSON.stringify(value);
    case 'number':
      if (!Number.isSafeInteger(value)) throw new TypeError(`${path} is not a safe integer`);
      // String(-0) is "0", as JCS writes it.
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return writeArray(value, path);
      return writeObject(value, path);
    default:
      throw new TypeError(`${path} is ${describe(value)}, which has no canonical JSON form`);
  }
}

/**
 * @param {readonly unknown[]} array
 * @param {string} path
 */
function writeArray(array, path) {
  const parts = [];
  // Indexes, not for…of: a hole reads as undefined and is refused like one.
  for (let index = 0; index < array.length; index += 1) parts.push(write(array[index], `${path}[${index}]`));
  return `[${parts.join(',')}]`;
}

/**
 * @param {object} object
 * @param {string} path
 */
function writeObject(object, path) {
  const prototype = Object.getPrototypeOf(object);
  if (prototype !== Object.prototype && prototype !== null) {
    const kind = prototype?.constructor?.name ?? 'object';
    throw new TypeError(`${path} is a ${kind}, not a plain object`);
  }
  const record = /** @type {Record<string, unknown>} */ (object);
  // Array.prototype.sort compares strings by UTF-16 code units, the order JCS prescribes.
  const names = Object.keys(record).sort();
  const parts = names.map((key) => {
    const member = IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
    return `${write(key, member)}:${write(record[key], member)}`;
  });
  return `{${parts.join(',')}}`;
}

/** @param {unknown} value */
function describe(value) {
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'bigint':
      return 'a bigint';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      return typeof value;
  }
}
