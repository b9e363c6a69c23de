/**
 * The port real deposits are charged through. Declared here, by the code that needs it; a real
 * processor's adapter implements it. `reference` is the deposit request's id, so a processor that
 * deduplicates on it charges a retried request once.
 */
export interface PaymentProvider {
  charge(input: {
    readonly userId: string;
    readonly amountCents: number;
    readonly reference: string;
  }): Promise<{ readonly status: 'succeeded' | 'failed'; readonly providerRef: string }>;
}

/** The spec's 'Deposit (Mock)': every charge succeeds at once. */
export const mockPaymentProvider: PaymentProvider = {
  async charge({ reference }) {
    return { status: 'succeeded', providerRef: `mock:${reference}` };
  },
};
