import type { MigrationSet } from '@updown/runtime';
import * as receiptsAndDisputes from './0050_receipts_and_disputes';
import * as disputePaging from './0051_dispute_paging';

/** Settlement's tables: the trades' signed receipts and their disputes. */
export const settlementMigrations: MigrationSet = {
  owner: 'settlement',
  migrations: {
    '0050_receipts_and_disputes': receiptsAndDisputes,
    '0051_dispute_paging': disputePaging,
  },
};
