import { useEffect } from 'react';
import { toast } from 'sonner';
import { useDisputes } from '../api/get-disputes';
import { decideResolutionToasts, loadShownIds, saveShownIds } from './dispute-toasts';

/**
 * Mounted while someone is signed in: polls the caller's disputes every 15 s and toasts each one
 * an admin has resolved since (see dispute-toasts.ts for what counts as new). Renders nothing.
 */
export function DisputeNotifications({ userId }: { userId: string }) {
  const disputes = useDisputes({ poll: true });

  useEffect(() => {
    if (!disputes.data) return;
    // Read and written on every answer: another tab may have shown some of them already.
    const decision = decideResolutionToasts(disputes.data, loadShownIds(userId), Date.now());
    saveShownIds(userId, decision.shownIds);
    for (const notice of decision.toasts) toast.success(notice.title, { id: `dispute-${notice.disputeId}` });
  }, [disputes.data, userId]);

  useEffect(() => {
    if (disputes.error) console.error('Failed to load disputes', disputes.error);
  }, [disputes.error]);

  return null;
}
