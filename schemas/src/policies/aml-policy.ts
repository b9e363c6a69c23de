import type { PolicyDocument } from './types';

export const AML_POLICY: PolicyDocument<'aml-policy'> = {
  slug: 'aml-policy',
  title: 'AML & KYC Policy',
  version: '2.0',
  effective_date: '2026-12-01',
  summary:
    'Updown does not allow its platform to be used for money laundering, terrorist financing or fraud. This policy explains how we know our customers (KYC), which documents we ask for and how we review them, how we watch for suspicious activity, and how long we keep the records.',
  sections: [
    {
      number: '1',
      heading: 'Purpose and scope',
      blocks: [
        'This Anti-Money Laundering (AML) and Know Your Customer (KYC) Policy applies to every Updown account and to every deposit, trade and withdrawal with real money. It forms part of the Terms & Conditions. Our compliance staff are responsible for applying it.',
      ],
    },
    {
      number: '2',
      heading: 'Identity verification before withdrawal',
      blocks: [
        'Photo ID and proof of address are mandatory before any withdrawal. To verify your identity you upload, from your dashboard:',
        {
          list: [
            'a photo ID: a valid passport, national identity card or driving licence showing your photo, full name and date of birth; and',
            'a proof of address: a recent utility bill or bank statement in your name showing your home address.',
          ],
        },
        'With the two documents you give your full legal name, exactly as on your photo ID, and your date of birth. You must be 18 years or older: a date of birth that makes you younger is refused.',
        'Until your verification has been approved, withdrawal requests are refused. You can deposit and trade meanwhile.',
      ],
    },
    {
      number: '3',
      heading: 'Accepted documents',
      blocks: [
        "Each document must be a JPEG, PNG or PDF file of up to 10 MB. A PDF may have at most 10 pages, and a picture may be at most 12,000 pixels on its longest side and 50 megapixels in total. We recognise a file's type from its content, not from its name, and refuse any other kind of file.",
        "Documents must be clear, complete, in colour where the original is, and not edited. A document that is unreadable, expired, cut off, altered, or in someone else's name is rejected.",
      ],
    },
    {
      number: '4',
      heading: 'Review and decision',
      blocks: [
        'Every submission is reviewed by our compliance staff, who compare the documents with each other and with the name and date of birth you gave. While a submission is under review its documents cannot be changed.',
        'The reviewer approves or rejects the submission. A rejection always comes with a reason, shown to you on your dashboard, that says what to correct. You can then upload corrected documents and submit again; there is no limit on resubmissions. An approval opens real withdrawals.',
        'No member of staff decides their own verification. Every decision is recorded with who made it, when, and the reason for a rejection, and every earlier submission and decision stays on record.',
      ],
    },
    {
      number: '5',
      heading: 'One account per person',
      blocks: [
        'Multiple accounts are prohibited. To detect them, every verification is compared with the verifications of all other accounts, on two signals:',
        {
          list: [
            'the same document: a file identical to one uploaded by another account, recognised by its fingerprint (SHA-256 hash); and',
            'the same person: the same full name, compared without regard to letter case, accents, punctuation or word order, and the same date of birth as another account.',
          ],
        },
        'A match flags both accounts for review by our compliance staff. The flag does not decide anything by itself: the reviewer investigates, and may reject the verification, reject withdrawal requests and close accounts found to be duplicates.',
      ],
    },
    {
      number: '6',
      heading: 'Deposits and withdrawals',
      blocks: [
        'Deposits are taken only through our payment provider, and you must pay only from a payment method in your own name. Withdrawals are made only from the real balance of a verified account, and every withdrawal is approved manually by our staff, who may ask you for further information, such as the source of the funds, before deciding. While a request is being reviewed the amount stays held and cannot be traded or withdrawn again.',
      ],
    },
    {
      number: '7',
      heading: 'Monitoring',
      blocks: [
        "Our staff monitor accounts for activity that does not fit a customer's profile or that may indicate money laundering, fraud or abuse, for example:",
        {
          list: [
            'deposits followed by withdrawal requests with little or no trading;',
            'deposits or withdrawals that are unusually large or frequent for the account;',
            'several accounts linked by the same documents, name and date of birth;',
            'trading patterns our risk scoring flags, such as trading on price moves the platform showed late;',
            'documents that appear altered or belong to someone else.',
          ],
        },
        'When activity needs a closer look we may ask you for more information or documents, and we may hold withdrawal requests until we are satisfied.',
      ],
    },
    {
      number: '8',
      heading: 'Reporting suspicious activity',
      blocks: [
        'Where we know or suspect that funds come from crime or are meant to finance terrorism, we report it to the competent financial intelligence unit as the law requires, and we may refuse or hold the transactions concerned. The law may forbid us from telling you that a report has been made.',
      ],
    },
    {
      number: '9',
      heading: 'Record keeping',
      blocks: [
        'Verification data (your legal name, date of birth, the documents you uploaded and every decision on them) is kept for at least 5 years after your account closes. It is not deleted before then: our database refuses to delete it, even at your request, until that period has passed. After that period it is deleted.',
        'Records of deposits, withdrawals and trades are kept in our ledger, whose entries are never edited or deleted, and every change made by our staff is recorded in an audit log.',
        'Your documents are stored in our database. Access to them is limited to you and our compliance staff (administrators), and they are never shown to other users.',
      ],
    },
    {
      number: '10',
      heading: 'Changes to this policy',
      blocks: [
        'We may change this policy, in particular when the law changes. Every version carries a version number and the date it takes effect at the top of the page, and we publish each new version here before it takes effect.',
      ],
    },
  ],
};
