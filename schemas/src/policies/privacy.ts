import type { PolicyDocument } from './types';

export const PRIVACY: PolicyDocument<'privacy'> = {
  slug: 'privacy',
  title: 'Privacy Policy',
  version: '2.0',
  effective_date: '2026-12-01',
  summary:
    'This policy explains what personal data Updown collects when you use the website and your account, why we use it and on what legal basis, who can see it, how long we keep it and what rights you have.',
  sections: [
    {
      number: '1',
      heading: 'Who is responsible for your data',
      blocks: [
        'The operator of Updown ("we", "us") is the controller of the personal data described in this policy. It applies to the Updown website and console, to your account and to every contact you have with our staff.',
      ],
    },
    {
      number: '2',
      heading: 'The data we collect',
      blocks: [
        {
          list: [
            'Account data: your name, your email address, your password (kept only as a salted hash, never in readable form), whether two-factor authentication is on and the secret your authenticator app shares with us, and when your account was created and last changed. If you sign in with Google, Google sends us your email address and name, and we keep the identifier Google gives your account.',
            'Trading data: every trade you place, with its pair, direction, stake, duration, payout, entry and exit prices, result and profit or loss, its signed receipt, and any dispute you raise with our decision on it.',
            'Wallet data: your real, demo and bonus balances, your deposits and withdrawals and our decisions on them, your bonus and its turnover, and every entry in our ledger that moves your money. Card and bank details are entered with our payment provider; Updown does not receive or store them.',
            'Verification data: your full legal name and date of birth, the photo ID and proof of address you upload, the type, size, page count and fingerprint (a SHA-256 hash) of each file, and every decision on your verification with who made it, when, and the reason for a rejection.',
            'Device and log data: your IP address and the requests your browser sends to our servers (the address requested, the time and the result), recorded in our server logs; failed sign-in attempts on your account; and the sign-in sessions of your devices, whose tokens we keep only in hashed form.',
          ],
        },
        "The console stores your sign-in session and a few display preferences (such as chart indicators) in your browser's local storage. It does not load advertising or third-party analytics scripts.",
      ],
    },
    {
      number: '3',
      heading: 'Why we use it and our legal bases',
      blocks: [
        {
          list: [
            'To open and run your account, carry out your trades, deposits and withdrawals, and issue receipts: this is necessary to perform our contract with you.',
            'To verify your identity and age, prevent money laundering, terrorist financing, fraud and multiple accounts, report suspicious activity and keep the records the law requires: this is our legal obligation.',
            'To keep the platform and your account secure, limit failed sign-ins, investigate misuse and defend legal claims: this is our legitimate interest in a safe and lawful service.',
            "To manage the risk we take as the counterparty to your trades: our systems score each trader's pattern of settled real trades, and our staff may set lower trading limits on an account because of it. The score never changes the result of a trade. This is our legitimate interest in managing our risk.",
            "To publish the Daily Leaderboard: when you are among the day's top traders, your account name and that day's profit or loss, number of trades and win rate on real trades are shown on the public leaderboard. This is our legitimate interest in running the leaderboard; you can choose an account name that does not identify you.",
          ],
        },
        'We do not sell your data and we do not use it for advertising. No decision with legal or similarly significant effect on you is taken by automated means alone: our staff decide verifications, withdrawals and disputes.',
      ],
    },
    {
      number: '4',
      heading: 'Who can see your data',
      blocks: [
        'Your identity documents are stored in our database. Access to them is limited to you and our compliance staff (administrators), and they are never shown to other users.',
        'Our administrators can see account, trading, wallet and verification data where their work requires it, to run the platform, review verifications and withdrawals, and resolve disputes. Every change an administrator makes is recorded in an audit log with who made it and when.',
        'Outside Updown we share data only with:',
        {
          list: [
            'our payment provider, which receives the amount of each deposit with our reference for it and for your account;',
            'Google, if you choose to sign in with Google;',
            'public authorities, such as a financial intelligence unit, a regulator, the police or a court, where the law requires us to disclose it.',
          ],
        },
        'Trade receipts identify your trade and account by internal identifiers, not by your name or email address. The price records and signed checkpoints we publish contain no personal data.',
      ],
    },
    {
      number: '5',
      heading: 'How long we keep it',
      blocks: [
        {
          list: [
            'Verification data (your legal name, date of birth, documents and the decisions on them) is kept for at least 5 years after your account closes, as anti-money-laundering law requires. Our database refuses to delete it before then; after that period it is deleted.',
            'Account, trading and wallet records are kept while your account is open and afterwards for as long as the law requires us to keep financial records. Entries in our ledger are never edited or deleted; a correction is made by a new entry.',
            'Server logs and records of failed sign-ins are kept only as long as we need them for security and to investigate misuse.',
          ],
        },
      ],
    },
    {
      number: '6',
      heading: 'How we protect it',
      blocks: [
        "Passwords and session tokens are kept only in hashed form. Two-factor authentication is available for every account. Every administrator action is checked for the administrator's rights on our server and recorded in the audit log. Your identity documents and your personal data are never shown to other users. No system is perfectly secure, but we review these controls and will tell you, and the authorities where the law requires, if a breach puts your data at risk.",
      ],
    },
    {
      number: '7',
      heading: 'Your rights',
      blocks: [
        'Under data protection law you have the right to:',
        {
          list: [
            'get a copy of the personal data we hold about you;',
            'have inaccurate data corrected;',
            'have your data erased, except what the law requires us to keep, such as verification data and financial records for the periods in section 5;',
            'restrict our use of your data, or object to uses based on our legitimate interests;',
            'receive the data you gave us in a structured, machine-readable form;',
            'complain to the data protection authority of your country.',
          ],
        },
        'To exercise a right, contact our customer support from the email address registered to your account. We may ask you to confirm your identity first, and we answer without undue delay and within the time the law allows.',
      ],
    },
    {
      number: '8',
      heading: 'Children',
      blocks: [
        'Updown is only for people aged 18 or older. We do not knowingly collect data about anyone younger; a verification that shows an account holder is under 18 is refused.',
      ],
    },
    {
      number: '9',
      heading: 'Changes to this policy',
      blocks: [
        'We may update this policy. Every version carries a version number and the date it takes effect at the top of the page, and we publish each new version here before it takes effect.',
      ],
    },
  ],
};
