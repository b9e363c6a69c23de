// lint-as: services/order/src/trades/lint-fixture.domain.ts
// expect: no-restricted-imports
import { sql } from 'kysely';

export const query = sql`select 1`;
