import { useDecideDeposit } from '../api/decide-deposit';
import { useDeposits } from '../api/get-deposits';
import { PaymentRequestsTab, type PaymentRequestKind } from './payment-requests-tab';

const DEPOSITS: PaymentRequestKind = {
  noun: 'Deposit',
  title: 'Deposit Requests',
  emptyText: 'No pending deposits',
  useList: useDeposits,
  useDecide: useDecideDeposit,
};

export function DepositsTab() {
  return <PaymentRequestsTab kind={DEPOSITS} />;
}
