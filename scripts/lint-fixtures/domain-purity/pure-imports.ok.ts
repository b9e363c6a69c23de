// lint-as: services/order/src/trades/lint-fixture.domain.ts
import { TRADE_AMOUNT_MIN } from '@updown/schemas/api';
import { stakeSplit } from '@updown/wallet/domain';
import { validatePlacement } from './place-trade.domain';

export const rules = { TRADE_AMOUNT_MIN, stakeSplit, validatePlacement };
