import type { PolicyDocument } from './types';

export const BONUS_POLICY: PolicyDocument<'bonus-policy'> = {
  slug: 'bonus-policy',
  title: 'Bonus Policy',
  version: '2.0',
  effective_date: '2026-12-01',
  summary:
    'Your first deposit can earn a welcome bonus. This policy explains how much it is, how to turn it into cash by trading (wagering), which trades count, the stake limit while it is active, and when it ends.',
  sections: [
    {
      number: '1',
      heading: 'The welcome bonus',
      blocks: [
        'We add a bonus of 50% of your first deposit, up to $500, which is reached with a $1,000 deposit. The minimum qualifying deposit is $20: a first deposit below $20 earns no bonus and leaves the offer open for a later deposit.',
        'Each account can receive the welcome bonus once, and only while no other bonus is active. The bonus is credited to your bonus balance as soon as the qualifying deposit is credited to your real balance (after approval, where deposits are reviewed).',
        'For example, a first deposit of $200 earns a $100 bonus.',
      ],
    },
    {
      number: '2',
      heading: 'Wagering requirement',
      blocks: [
        'To turn the bonus into cash you must reach a wagering turnover of 35 times the bonus: the total stake of the trades that count (section 3) must reach 35 times the bonus amount before the bonus expires. For the $100 bonus above, that is $3,500 of counted stake. Your wallet shows the turnover completed and the turnover required.',
      ],
    },
    {
      number: '3',
      heading: 'Which trades count',
      blocks: [
        'Only the stake of settled real trades with an expiry of 30 seconds or more counts toward the turnover, at 100% of the stake, when the trade settles. The following count 0%:',
        {
          list: [
            'trades with an expiry under 30 seconds;',
            'hedged opposite positions: an UP and a DOWN trade of yours on the same asset with the same expiry, both of which count 0%;',
            'demo trades.',
          ],
        },
        'Open trades count only once they settle.',
      ],
    },
    {
      number: '4',
      heading: 'Maximum stake while the bonus is active',
      blocks: [
        'While the bonus is active, the maximum stake per real trade is 20% of the bonus amount. For the $100 bonus above, that is $20 per trade. A larger real stake is refused and the limit is shown to you.',
        'A real stake is taken from your cash balance first and from your bonus balance only when your cash is used up. The returned amount of a trade goes back to your cash and bonus balances in the same proportion as its stake was taken, so winnings made with bonus funds stay in your bonus balance until the wagering is complete.',
      ],
    },
    {
      number: '5',
      heading: 'Completion',
      blocks: [
        'When the counted turnover reaches the requirement, the bonus is complete and your remaining bonus balance is converted to cash in your real balance. It can then be traded and withdrawn like any other cash, subject to identity verification. Bonus funds still staked in open trades at that moment become cash when those trades settle.',
      ],
    },
    {
      number: '6',
      heading: 'Validity and expiry',
      blocks: [
        'The bonus is valid for 30 days from the moment it is credited. Your wallet shows the days remaining, counting a part of a day as a whole day. If the wagering requirement has not been reached by then, the bonus expires: your remaining bonus balance, including winnings made with bonus funds, is removed, and bonus funds staked in open trades are removed when those trades settle.',
      ],
    },
    {
      number: '7',
      heading: 'Forfeiture: withdrawing or cancelling',
      blocks: [
        'Withdrawing before completion forfeits the bonus. If you request a withdrawal while the bonus is active, the bonus is forfeited at that moment, even if the withdrawal is later rejected: your bonus balance, including winnings made with bonus funds, is removed.',
        'You can also cancel the bonus at any time with Cancel Bonus on your wallet page. Cancelling forfeits the bonus and the profits made with it in the same way, and cannot be undone.',
        'Forfeiture and expiry never touch your own cash: your deposits and the profits credited to your cash balance stay yours.',
      ],
    },
    {
      number: '8',
      heading: 'Fair use',
      blocks: [
        'The bonus is for one person and one account. Opening more than one account to receive more than one bonus is prohibited under the Terms & Conditions and the AML & KYC Policy; hedged trades never count toward the turnover.',
        'We may change or withdraw the welcome offer for new deposits. A bonus already credited keeps the terms in force when it was credited. Every version of this policy carries a version number and the date it takes effect at the top of the page.',
      ],
    },
  ],
};
