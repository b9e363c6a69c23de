// @ts-check
/**
 * The two cryptographic operations verification needs, behind one interface so the checks run
 * unchanged on node:crypto (./node-crypto.js) and on Web Crypto in a browser (./web-crypto.js).
 * Both are asynchronous because Web Crypto is.
 */

/**
 * An Ed25519 public key as a JWK (RFC 8037): only these members are used.
 *
 * @typedef {object} PublicJwk
 * @property {string} kty "OKP"
 * @property {string} crv "Ed25519"
 * @property {string} x the 32-byte public key, base64url without padding
 */

/**
 * @typedef {object} CryptoPort
 * @property {(text: string) => Promise<string>} sha256Hex SHA-256 of the UTF-8 bytes of `text`,
 *   64 lowercase hex characters
 * @property {(jwk: PublicJwk, message: string, signatureB64url: string) => Promise<boolean>} verifyEd25519
 *   whether `signatureB64url` (64 bytes, base64url without padding) is a valid Ed25519 signature
 *   of the UTF-8 bytes of `message` by `jwk`; false, never an exception, for a malformed key or
 *   signature
 */

export {};
