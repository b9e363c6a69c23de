import { useEffect } from 'react';
import { Link } from 'react-router';
import type { IdentityStatus } from '../../../lib/identity';
import { useIdentity } from '../api/get-identity';

const NEXT_STEP: Record<IdentityStatus, string> = {
  not_started: 'Upload your documents on the dashboard',
  pending: 'Your documents are under review: see the dashboard',
  rejected: 'See why on the dashboard and upload them again',
  verified: '',
};

/**
 * The wallet's Withdraw card says, until the trader is verified, that real withdrawals wait for
 * identity verification, with a link to the dashboard's Verification card. It says nothing while
 * the status loads or when it fails to: the server refuses an unverified withdrawal anyway, and
 * its reason reaches the withdrawal's failure toast.
 */
export function IdentityWithdrawNotice() {
  const identity = useIdentity();

  useEffect(() => {
    if (identity.error) console.error('Failed to load identity verification', identity.error);
  }, [identity.error]);

  const data = identity.data;
  if (!data || data.can_withdraw || data.status === 'verified') return null;
  return (
    <div className="identity-notice">
      <strong>Verify your identity to withdraw real funds</strong>
      <Link to="/dashboard">{NEXT_STEP[data.status]}</Link>
    </div>
  );
}
