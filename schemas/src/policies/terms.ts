import type { PolicyDocument } from './types';

export const TERMS: PolicyDocument<'terms'> = {
  slug: 'terms',
  title: 'Terms & Conditions',
  version: '2.0',
  effective_date: '2026-12-01',
  summary:
    'These terms govern your use of Updown, a platform for fixed-time trades on currency, metal and crypto pairs. Together with the Trading Rules, the Client Agreement, the Privacy Policy, the AML & KYC Policy and the Bonus Policy they form the agreement between you and us. Please read them before you register.',
  sections: [
    {
      number: '1',
      heading: 'About these terms',
      blocks: [
        'These Terms & Conditions ("Terms") apply to everyone who visits the Updown website or holds an Updown account. "Updown", "we", "us" and "our" mean the operator of the Updown platform; "you" and "your" mean the visitor or account holder.',
        'By registering you accept these Terms and the documents that form part of them: the Trading Rules, the Client Agreement, the Privacy Policy, the AML & KYC Policy and the Bonus Policy. Where one of those documents deals with a matter specifically (for example, how a trade is settled), that document applies to that matter.',
      ],
    },
    {
      number: '2',
      heading: 'Who may use Updown',
      blocks: [
        'You must be 18 years of age or older to register and to trade. When you register you confirm this by ticking "I confirm that I am 18 years or older", and you accept these Terms and the Privacy Policy by ticking the box beside them. We cannot open an account without both.',
        'When you verify your identity we check your age against the date of birth you give and the photo ID you upload. A verification that shows you are under 18 is refused, and real withdrawals stay closed to that account.',
        'You must not use Updown where fixed-time trading is not lawful for you, and you must not open or use an account on behalf of another person.',
      ],
    },
    {
      number: '3',
      heading: 'Your account',
      blocks: [
        "Each person may hold one Updown account. Multiple accounts are prohibited, whether they are opened with different email addresses, by signing in with Google as well as with a password, or in another person's name.",
        'We look for duplicate accounts when identities are verified. An account that uploads the same identity document as another account, or submits the same full name and date of birth as another account, is flagged for review by our compliance staff, and so is the other account. While we review a flagged account we may reject its verification and its withdrawal requests, and we may close accounts that we find to be duplicates.',
        'Every account has two balances:',
        {
          list: [
            'a real account, funded by your deposits, on which trades win and lose real money; and',
            'a demo account with virtual funds, for practice. Demo trades follow the same prices and rules, but demo funds have no cash value and cannot be withdrawn.',
          ],
        },
        'You are responsible for keeping your password and the devices you sign in from secure, and for everything done with your account. Tell us at once if you believe someone else has used it.',
      ],
    },
    {
      number: '4',
      heading: 'Security and two-factor authentication',
      blocks: [
        'You can turn on two-factor authentication (2FA) in the security settings of your account. With 2FA on, signing in needs a one-time code from your authenticator app as well as your password. We strongly recommend 2FA for every account that holds real funds.',
        'To protect accounts we limit repeated failed sign-in attempts, and you can sign out of a session at any time. We will never ask you for your password or a 2FA code.',
      ],
    },
    {
      number: '5',
      heading: 'Trading',
      blocks: [
        'Updown offers fixed-time trades. You choose a pair, a stake and a duration from 1 minute to 1 hour, and call whether the price will go UP or DOWN. At expiry the trade settles as won, lost or draw, or is made void, exactly as the Trading Rules describe.',
        'A trade is accepted when our server confirms it and it appears among your active trades. Trades cannot be cancelled once accepted: an accepted trade cannot be closed early or changed, and it runs until its expiry.',
        'The payout is fixed at placement. It is the payout percentage shown on the UP or DOWN button you pressed. If the payout for that direction has fallen by the time our server decides on your trade, the trade is refused and the new payout is shown to you; nothing is taken from your balance, and you decide whether to trade again at the new payout.',
        'We limit risk with a minimum and a maximum stake, with limits on the exposure of each pair and direction, and with limits on the open stake and the number of open trades each trader may hold. A trade that would go beyond a limit is refused and nothing is taken from your balance. The Trading Rules give the details.',
      ],
    },
    {
      number: '6',
      heading: 'Suspension of trading',
      blocks: [
        "We may suspend real trading on a pair at any time, in particular when our risk controls find that the pair's losses over a recent period are beyond its limit. While real trading on a pair is suspended the trading page says so and you cannot open new real trades on it; demo trading on it stays open, and trades already open run to their expiry and settle normally.",
        'A pair is also paused for all trading, real and demo, while it has no fresh price or while its price feed and its reference feed disagree. We may add pairs, take pairs out of trading and change their payouts; a change never affects a trade already accepted.',
      ],
    },
    {
      number: '7',
      heading: 'Risk warning',
      blocks: [
        'Fixed-time trading carries a high level of risk. If your call is wrong you lose your whole stake, and trades can be lost in quick succession. A winning trade pays only the payout percentage of the stake, which is less than the stake you risk. Results on the demo account or on the leaderboard do not predict future results.',
        'Only trade with money you can afford to lose. Updown does not give investment, tax or legal advice, and nothing on the platform is a recommendation to trade.',
      ],
    },
    {
      number: '8',
      heading: 'Deposits, withdrawals and bonuses',
      blocks: [
        'Deposits and withdrawals are governed by the Client Agreement. Before any withdrawal you must verify your identity as the AML & KYC Policy describes, and every withdrawal is approved manually by our staff. The first-deposit bonus is governed by the Bonus Policy.',
      ],
    },
    {
      number: '9',
      heading: 'Disputes and complaints',
      blocks: [
        'If you believe a trade was settled wrongly, dispute it from your trade history within 24 hours of settlement. We replay the settlement from the recorded, hash-chained prices and show you the result; our staff then confirm the settlement or correct it. After 24 hours the settlement is final. The Trading Rules describe the process in full.',
        'For any other complaint, contact our customer support. We acknowledge every complaint, investigate it and give you a written answer.',
      ],
    },
    {
      number: '10',
      heading: 'Acceptable use',
      blocks: [
        'You must not misuse Updown. In particular you must not:',
        {
          list: [
            "open or use more than one account, or use another person's account or identity documents;",
            "provide false, altered or someone else's information or documents;",
            "try to gain access to accounts, data or functions that are not yours, or interfere with the platform's operation or security;",
            'use the platform for money laundering, fraud or any other unlawful purpose.',
          ],
        },
        'If we reasonably believe you have broken these Terms, we may lower your trading limits, reject your withdrawal requests while we investigate, and close your account, and we report suspected crime where the law requires it.',
      ],
    },
    {
      number: '11',
      heading: 'Our liability',
      blocks: [
        'We settle every trade on the recorded prices under the Trading Rules, and we correct any settlement that we find to be wrong. We are not liable for losses that result from your trading decisions, from price movements, or from the failure of your own device or internet connection. If the platform is interrupted, trades already accepted still settle on the recorded prices.',
        'Nothing in these Terms limits liability that cannot be limited by law, including liability for fraud or for death or personal injury caused by negligence.',
      ],
    },
    {
      number: '12',
      heading: 'Changes to these terms',
      blocks: [
        'We may change these Terms and the documents that form part of them. Every version carries a version number and the date it takes effect at the top of the page. We publish each new version on this page before it takes effect. A trade is always settled under the rules in force when it was accepted. If you do not accept a change, you may close your account before it takes effect.',
      ],
    },
    {
      number: '13',
      heading: 'Governing terms',
      blocks: [
        'These Terms, with the documents listed in section 1, are the whole agreement between you and Updown about your use of the platform. They are governed by the law of the jurisdiction in which the operator of Updown is licensed, and its courts decide any dispute about them, without taking away any protection the law of your country of residence gives you as a consumer.',
        'If a court finds part of these Terms unenforceable, the rest remains in force. If we do not enforce a right at once, we do not give it up.',
      ],
    },
  ],
};
