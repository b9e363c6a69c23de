import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { StepList } from '../../../components/ui/step-list';
import { errorDetail } from '../../../lib/api-client';
import type { CheckStep } from '../../../lib/disputes';
import { keySetQueryOptions } from '../api/get-key-set';
import type { ReceiptDocument } from '../api/get-receipt';
import { receiptFile, saveFile } from './download-receipt';
import { verifyInBrowser, type Verification } from './verify-in-browser';

/** `Receipt verified`, or `Receipt invalid: ` and the first check that failed with what differs. */
export function verdictText(result: Verification): string {
  if (result.verdict === 'valid') return 'Receipt verified';
  const failed: CheckStep | undefined = result.steps.find((step) => step.status === 'fail');
  const why = failed
    ? `${failed.title}: ${failed.detail}`
    : (result.firstFailure ?? 'the receipt is not usable');
  return `Receipt invalid: ${why}`;
}

type State =
  | { phase: 'idle' }
  | { phase: 'running' }
  | { phase: 'done'; result: Verification }
  | { phase: 'error'; message: string };

/**
 * Verify and Download. Verify fetches the published key set and runs the verifier in this browser
 * with the Web Crypto port: the server is not asked whether its own receipt is genuine. Its key set
 * comes from the same server, though, so the view shows that key set's thumbprint for the trader to
 * compare with the one the platform publishes elsewhere. Download saves the document with that key
 * set for the command-line verifier, which calls it unpinned unless given the thumbprint.
 */
export function ReceiptVerification({ document }: { document: ReceiptDocument }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>({ phase: 'idle' });
  const [downloadError, setDownloadError] = useState<string | null>(null);

  const onVerify = async () => {
    if (state.phase === 'running') return;
    setState({ phase: 'running' });
    try {
      const keySet = await queryClient.fetchQuery(keySetQueryOptions());
      setState({ phase: 'done', result: await verifyInBrowser(document, keySet) });
    } catch (error) {
      console.error('Failed to verify the receipt', error);
      setState({ phase: 'error', message: errorDetail(error, 'Failed to verify the receipt') });
    }
  };

  const onDownload = async () => {
    setDownloadError(null);
    try {
      const file = receiptFile(document, await queryClient.fetchQuery(keySetQueryOptions()));
      saveFile(file.name, file.text);
    } catch (error) {
      console.error('Failed to download the receipt', error);
      setDownloadError(errorDetail(error, 'Failed to download the receipt'));
    }
  };

  return (
    <section className="receipt-verification" aria-label="Verification">
      <div className="receipt-dialog__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={state.phase === 'running'}
          onClick={() => void onVerify()}
        >
          {state.phase === 'running' ? 'Verifying...' : 'Verify'}
        </button>
        <button type="button" className="button" onClick={() => void onDownload()}>
          Download
        </button>
      </div>
      {downloadError && (
        <p className="text-down" role="alert">
          {downloadError}
        </p>
      )}
      {state.phase === 'error' && (
        <p className="text-down" role="alert">
          {state.message}
        </p>
      )}
      {state.phase === 'done' && (
        <>
          <StepList steps={state.result.steps} label="Verification steps" />
          <p
            className={
              state.result.verdict === 'valid' ? 'text-up receipt-verdict' : 'text-down receipt-verdict'
            }
            role="status"
          >
            {verdictText(state.result)}
          </p>
          <p className="receipt-thumbprint" style={{ overflowWrap: 'anywhere' }}>
            Key set thumbprint <code>{state.result.keySetThumbprint}</code>: compare it with the one the
            platform publishes before relying on the verdict.
          </p>
        </>
      )}
    </section>
  );
}
