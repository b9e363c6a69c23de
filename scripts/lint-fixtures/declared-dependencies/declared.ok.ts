// lint-as: services/wallet/src/ledger/lint-fixture.ts
import { sql } from 'kysely';
import { DomainError } from '@updown/runtime';

export const used = { sql, DomainError };
