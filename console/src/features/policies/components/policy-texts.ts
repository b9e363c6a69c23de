/** The static policy pages (spec §2 "Policy pages", §9 "Policy texts"). */
export const POLICIES = {
  terms: {
    title: 'Terms & Conditions',
    paragraphs: [
      'By opening an account you agree to these terms. Trading fixed-time contracts carries a high risk of losing the stake.',
      'Trades cannot be cancelled once placed. Multiple accounts per person are prohibited.',
      'Disputes about a trade must be reported within 24 hours of its expiry.',
    ],
  },
  privacy: {
    title: 'Privacy Policy',
    paragraphs: [
      'We collect the data needed to run your account: name, e-mail address, trading and payment history.',
      'Identity (KYC) data is kept for at least 5 years, as required by anti-money-laundering rules.',
    ],
  },
  rules: {
    title: 'Trading Rules',
    paragraphs: [
      'A trade settles as won when the price moved in the chosen direction at expiry, and lost otherwise.',
      'A winning trade pays the stake times the payout percentage shown when it was placed. Trades cannot be cancelled.',
    ],
  },
  'client-agreement': {
    title: 'Client Agreement',
    paragraphs: [
      'The client trades at their own risk and confirms being 18 years or older.',
      'Withdrawals need manual approval. Disputes must be reported within 24 hours.',
    ],
  },
  'aml-policy': {
    title: 'AML Policy',
    paragraphs: [
      'Photo ID and proof of address are mandatory before a withdrawal.',
      'KYC data is kept for at least 5 years. Multiple accounts are prohibited.',
    ],
  },
  'bonus-policy': {
    title: 'Bonus Policy',
    paragraphs: [
      'The first deposit earns a 50% bonus, up to $500 (reached at a $1,000 deposit). The minimum qualifying deposit is $20.',
      'The bonus is completed when the turnover reaches 35 times the bonus. Only the stake of settled real trades with an expiry of 30 seconds or more counts; shorter trades, hedged opposite positions on the same asset and expiry, and demo trades count 0%.',
      'While a bonus is active the largest stake per trade is 20% of the bonus amount. The bonus is valid for 30 days.',
      'Withdrawing before the turnover is completed, or cancelling the bonus, forfeits the bonus and the profits made with it.',
    ],
  },
} as const;

export type PolicySlug = keyof typeof POLICIES;
export const POLICY_SLUGS = Object.keys(POLICIES) as PolicySlug[];
