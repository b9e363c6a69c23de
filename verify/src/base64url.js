// @ts-check
/**
 * base64url (RFC 4648 §5, without padding) and hex, strictly: a character outside the alphabet,
 * padding, an impossible length or stray low bits make the text invalid rather than being skipped
 * as lenient decoders do. No platform API, so it runs anywhere.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const HEX = /^(?:[0-9a-f]{2})*$/;

/**
 * The bytes of a base64url text, or undefined when it is not canonical unpadded base64url.
 *
 * @param {string} text
 * @returns {Uint8Array<ArrayBuffer> | undefined}
 */
export function base64urlToBytes(text) {
  if (typeof text !== 'string' || !BASE64URL.test(text) || text.length % 4 === 1) return undefined;
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const char of text) {
    buffer = (buffer << 6) | ALPHABET.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[index] = (buffer >> bits) & 0xff;
      index += 1;
    }
  }
  // The bits left over must be zero, else two texts would decode to the same bytes.
  if ((buffer & ((1 << bits) - 1)) !== 0) return undefined;
  return bytes;
}

/**
 * @param {Uint8Array} bytes
 * @returns {string} base64url without padding
 */
export function bytesToBase64url(bytes) {
  let text = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer & 0xff) << 8) | byte;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      text += ALPHABET[(buffer >> bits) & 0x3f];
    }
  }
  if (bits > 0) text += ALPHABET[(buffer << (6 - bits)) & 0x3f];
  return text;
}

/**
 * @param {string} hex lowercase hex, an even number of characters
 * @returns {Uint8Array<ArrayBuffer>}
 * @throws {TypeError} for anything else
 */
export function hexToBytes(hex) {
  if (typeof hex !== 'string' || !HEX.test(hex)) throw new TypeError('not lowercase hex of whole bytes');
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index += 1) {
    bytes[index] = parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  }
  return bytes;
}

/**
 * @param {Uint8Array} bytes
 * @returns {string} lowercase hex
 */
export function bytesToHex(bytes) {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
