import { keySetThumbprint, verifyReceipt, webCrypto } from '@updown/verify';
import type { CheckStep } from '../../../lib/disputes';
import type { KeySet } from '../api/get-key-set';
import type { ReceiptDocument } from '../api/get-receipt';

/** What the verifier reports: every step with its status, and the verdict. */
export interface Verification {
  verdict: 'valid' | 'invalid' | 'unusable';
  steps: CheckStep[];
  /** `<step id>: <detail>` of the first step that failed. */
  firstFailure?: string;
  /**
   * The thumbprint of the key set the receipt was checked against (docs/receipts.md, 6.1), for the
   * trader to compare with the one the platform publishes.
   */
  keySetThumbprint: string;
}

/**
 * Runs the receipt verifier here, with this browser's Web Crypto doing the SHA-256 and Ed25519
 * work, against the key set the platform publishes, and names that key set by its thumbprint.
 */
export async function verifyInBrowser(document: ReceiptDocument, keySet: KeySet): Promise<Verification> {
  const port = webCrypto();
  const [result, thumbprint] = await Promise.all([
    verifyReceipt(document, keySet, port),
    keySetThumbprint(port, keySet),
  ]);
  return { ...result, keySetThumbprint: thumbprint };
}
