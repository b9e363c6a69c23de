import type { ApiClient, SignedUp } from '@updown/api-client';
import { ownDocumentForm } from '@updown/accounts/testing';

/**
 * Set-up for a journey that is not about verification: the trader's identity verified through the
 * API (two documents of their own, a submission under their account's name, an admin's approval),
 * so withdrawals open.
 */
export async function verifyIdentity(
  api: ApiClient,
  trader: Pick<SignedUp, 'id' | 'name' | 'accessToken'>,
  adminToken: string,
): Promise<void> {
  const token = trader.accessToken;
  for (const kind of ['photo_id', 'proof_of_address'] as const) {
    await api.post('/api/identity/documents', ownDocumentForm(trader.id, kind), { token });
  }
  await api.post('/api/identity/submit', { full_name: trader.name, date_of_birth: '1990-01-01' }, { token });
  const queue = await api.get('/api/admin/verifications', { token: adminToken });
  const submission = queue.find((pending) => pending.user_id === trader.id);
  if (!submission) throw new Error(`no pending verification of ${trader.id}`);
  await api.post(
    '/api/admin/verifications/{id}',
    { action: 'approve' },
    { token: adminToken, params: { id: submission.id } },
  );
}
