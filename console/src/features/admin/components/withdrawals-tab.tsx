import { useDecideWithdrawal } from '../api/decide-withdrawal';
import { useWithdrawals } from '../api/get-withdrawals';
import { PaymentRequestsTab, type PaymentRequestKind } from './payment-requests-tab';

const WITHDRAWALS: PaymentRequestKind = {
  noun: 'Withdrawal',
  title: 'Withdrawal Requests',
  emptyText: 'No pending withdrawals',
  useList: useWithdrawals,
  useDecide: useDecideWithdrawal,
  showIdentity: true,
};

export function WithdrawalsTab() {
  return <PaymentRequestsTab kind={WITHDRAWALS} />;
}
