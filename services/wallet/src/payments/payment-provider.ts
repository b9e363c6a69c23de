/**
 * The port real deposits are charged through. Declared here, by the code that needs it; a real
 * processor's adapter implements it. `reference` is the deposit request's id, so a processor that
 * deduplicates on it charges a retried request once, and `status` can answer for it later.
 *
 * The wallet never calls the provider with a transaction open or a pooled connection held: it
 * records a payment intent first and records the result afterwards (see `payment-intents.ts`).
 */
export interface PaymentResult {
  readonly status: 'succeeded' | 'failed';
  readonly providerRef: string;
}

export interface PaymentProvider {
  charge(input: {
    readonly userId: string;
    readonly amountCents: number;
    readonly reference: string;
  }): Promise<PaymentResult>;
  /**
   * The outcome of an earlier charge with this reference, for recovery after a crash between the
   * charge and the recording of its result: `unknown` when the provider never saw the reference
   * (the charge did not reach it, so nothing was taken).
   */
  status(reference: string): Promise<PaymentResult | { readonly status: 'unknown' }>;
}

/** The spec's 'Deposit (Mock)': every charge succeeds at once, and every reference was charged. */
export const mockPaymentProvider: PaymentProvider = {
  async charge({ reference }) {
    return { status: 'succeeded', providerRef: `mock:${reference}` };
  },
  async status(reference) {
    return { status: 'succeeded', providerRef: `mock:${reference}` };
  },
};
