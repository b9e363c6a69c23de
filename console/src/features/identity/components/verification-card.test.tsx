// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { tokenStore } from '../../../lib/token-store';
import { bodiesOf, calls, fakeApi, json } from '../../../testing/fake-api';
import {
  PENDING_IDENTITY,
  PROOF_OF_ADDRESS_PDF,
  READY_TO_SUBMIT,
  REJECTED_IDENTITY,
  VERIFIED_IDENTITY,
  identityDocument,
  identityResponse,
} from '../../../testing/fake-identity';
import { renderWithProviders } from '../../../testing/render';
import { VerificationCard } from './verification-card';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

beforeEach(() => {
  localStorage.clear();
  tokenStore.setAccessToken('trader-token');
});

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

const UPLOAD = 'POST /api/identity/documents';
const SUBMIT = 'POST /api/identity/submit';

function card() {
  return within(screen.getByRole('region', { name: 'Verification' }));
}

function jpeg(name = 'passport.jpg') {
  return new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], name, { type: 'image/jpeg' });
}

function submitButton() {
  return screen.getByRole('button', { name: 'Submit for review' }) as HTMLButtonElement;
}

/** The date input as a browser's date picker fills it. */
function setBirthDate(value: string) {
  fireEvent.change(screen.getByLabelText('Date of birth'), { target: { value } });
}

describe('VerificationCard', () => {
  it('starts with both documents missing, two upload controls and the submit button disabled', async () => {
    fakeApi({ 'GET /api/identity': json(identityResponse()) });
    renderWithProviders(<VerificationCard />);
    expect(await card().findByText('Not started')).toBeTruthy();
    expect(card().getByRole('heading', { name: 'Verification' })).toBeTruthy();
    expect(card().getByText('Photo ID, Proof of address')).toBeTruthy();
    for (const label of ['Photo ID', 'Proof of address']) {
      const input = screen.getByLabelText(label) as HTMLInputElement;
      expect(input.type).toBe('file');
      expect(input.accept).toBe('.jpg,.jpeg,.png,.pdf');
      expect(input.getAttribute('aria-describedby')).toBe(
        screen.getByText('JPEG, PNG or PDF, up to 10 MB').id,
      );
    }
    expect(screen.getByText('No documents uploaded yet')).toBeTruthy();
    expect(screen.getByLabelText('Full legal name')).toBeTruthy();
    expect(submitButton().disabled).toBe(true);
  });

  it('uploads a document as FormData, kind first then the file, with the token and no JSON type', async () => {
    let identity = identityResponse();
    const photo = identityDocument();
    const fetchMock = fakeApi({
      'GET /api/identity': () => json(identity),
      [UPLOAD]: () => {
        identity = identityResponse({ missing: ['proof_of_address'], documents: [photo] });
        return json(photo, 201);
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<VerificationCard />);
    const file = jpeg();
    await user.upload(await screen.findByLabelText('Photo ID'), file);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Photo ID uploaded'));

    const upload = fetchMock.mock.calls.find(([url, init]) => `${init?.method} ${url}` === UPLOAD)!;
    const init = upload[1]!;
    expect(init.body).toBeInstanceOf(FormData);
    const entries = [...(init.body as FormData).entries()];
    expect(entries.map(([name]) => name)).toEqual(['kind', 'file']);
    expect(entries[0]![1]).toBe('photo_id');
    expect((entries[1]![1] as File).name).toBe('passport.jpg');
    const headers = init.headers as Record<string, string>;
    expect(headers['content-type']).toBeUndefined();
    expect(headers.authorization).toBe('Bearer trader-token');

    // The card reloads: the file is listed and only the proof of address is still needed.
    expect(await screen.findByText('Photo ID · JPEG · 1.5 MB')).toBeTruthy();
    expect(card().getByText(/^Still needed:/).textContent).toBe('Still needed: Proof of address');
    expect(calls(fetchMock).filter((call) => call === 'GET /api/identity')).toHaveLength(2);
  });

  it("shows the server's detail when an upload is refused", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeApi({
      'GET /api/identity': json(identityResponse()),
      [UPLOAD]: json({ code: 'INVALID_DOCUMENT', detail: 'The file is not a JPEG, PNG or PDF' }, 400),
    });
    const user = userEvent.setup();
    renderWithProviders(<VerificationCard />);
    await user.upload(await screen.findByLabelText('Proof of address'), jpeg('bill.jpg'));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('The file is not a JPEG, PNG or PDF'));
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('refuses a file over 10 MB without sending it', async () => {
    const fetchMock = fakeApi({ 'GET /api/identity': json(identityResponse()) });
    const user = userEvent.setup();
    renderWithProviders(<VerificationCard />);
    const big = jpeg('huge.jpg');
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 });
    await user.upload(await screen.findByLabelText('Photo ID'), big);
    expect(toast.error).toHaveBeenCalledWith('A document may be at most 10 MB');
    expect(calls(fetchMock).filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('enables Submit for review only with both documents, a name and a date of birth', async () => {
    fakeApi({
      'GET /api/identity': json(
        identityResponse({ missing: ['proof_of_address'], documents: [identityDocument()] }),
      ),
    });
    const user = userEvent.setup();
    renderWithProviders(<VerificationCard />);
    await user.type(await screen.findByLabelText('Full legal name'), 'Ann Marie Lee');
    setBirthDate('1990-04-12');
    // The proof of address is still missing.
    expect(submitButton().disabled).toBe(true);
    cleanup();

    fakeApi({ 'GET /api/identity': json(READY_TO_SUBMIT) });
    renderWithProviders(<VerificationCard />);
    expect(await screen.findByText('Proof of address · PDF · 244 KB')).toBeTruthy();
    expect(screen.queryByText(/Still needed/)).toBeNull();
    expect(submitButton().disabled).toBe(true);
    await user.type(screen.getByLabelText('Full legal name'), 'Ann Marie Lee');
    expect(submitButton().disabled).toBe(true);
    setBirthDate('1990-04-12');
    expect(submitButton().disabled).toBe(false);
    await user.clear(screen.getByLabelText('Full legal name'));
    expect(submitButton().disabled).toBe(true);
  });

  it('submits the trimmed name and the date, then shows the review as pending', async () => {
    const fetchMock = fakeApi({
      'GET /api/identity': json(READY_TO_SUBMIT),
      [SUBMIT]: json(PENDING_IDENTITY),
    });
    const user = userEvent.setup();
    renderWithProviders(<VerificationCard />);
    await user.type(await screen.findByLabelText('Full legal name'), '  Ann Marie Lee ');
    setBirthDate('1990-04-12');
    await user.click(submitButton());
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Submitted for review'));
    expect(bodiesOf(fetchMock, 'POST', '/api/identity/submit')).toEqual([
      { full_name: 'Ann Marie Lee', date_of_birth: '1990-04-12' },
    ]);
    expect(await card().findByText('Pending review')).toBeTruthy();
    expect(screen.queryByLabelText('Photo ID')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Submit for review' })).toBeNull();
  });

  it("shows the server's detail when the submission is refused", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeApi({
      'GET /api/identity': json(READY_TO_SUBMIT),
      [SUBMIT]: json({ code: 'INVALID_IDENTITY_DETAILS', detail: 'You must be at least 18 to trade' }, 400),
    });
    const user = userEvent.setup();
    renderWithProviders(<VerificationCard />);
    await user.type(await screen.findByLabelText('Full legal name'), 'Ann Lee');
    setBirthDate('2015-01-01');
    await user.click(submitButton());
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('You must be at least 18 to trade'));
    expect(card().getByText('Not started')).toBeTruthy();
  });

  it('shows a pending review with the submitted details and documents, and nothing to edit', async () => {
    fakeApi({ 'GET /api/identity': json(PENDING_IDENTITY) });
    renderWithProviders(<VerificationCard />);
    expect(await card().findByText('Pending review')).toBeTruthy();
    expect(card().getByText('Pending review').className).toContain('badge--pending');
    expect(card().getByText(/Your documents are being reviewed/)).toBeTruthy();
    expect(card().getByText('Ann Marie Lee')).toBeTruthy();
    expect(card().getByText(new Date(1990, 3, 12).toLocaleDateString())).toBeTruthy();
    expect(card().getByText('Photo ID · JPEG · 1.5 MB')).toBeTruthy();
    expect(card().getByText('Proof of address · PDF · 244 KB')).toBeTruthy();
    expect(screen.queryByLabelText('Photo ID')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Submit for review' })).toBeNull();
  });

  it('says withdrawals are open once verified', async () => {
    fakeApi({ 'GET /api/identity': json(VERIFIED_IDENTITY) });
    renderWithProviders(<VerificationCard />);
    expect(await card().findByText('Identity verified — withdrawals are open')).toBeTruthy();
    expect(card().getByText('Verified').className).toContain('badge--up');
    expect(screen.queryByRole('button', { name: 'Submit for review' })).toBeNull();
  });

  it('shows the rejection reason and lets the trader upload again and re-submit', async () => {
    let identity = REJECTED_IDENTITY;
    const fetchMock = fakeApi({
      'GET /api/identity': () => json(identity),
      [UPLOAD]: () => {
        identity = {
          ...REJECTED_IDENTITY,
          missing: [],
          documents: [identityDocument(), PROOF_OF_ADDRESS_PDF],
        };
        return json(identityDocument(), 201);
      },
      [SUBMIT]: json(PENDING_IDENTITY),
    });
    const user = userEvent.setup();
    renderWithProviders(<VerificationCard />);
    expect(await card().findByText('Rejected')).toBeTruthy();
    expect(card().getByText('Rejected').className).toContain('badge--down');
    expect(card().getByText('Reason: The photo ID is blurred: upload a sharper picture')).toBeTruthy();
    // The details of the rejected submission are kept for the next one.
    expect((screen.getByLabelText('Full legal name') as HTMLInputElement).value).toBe('Ann Marie Lee');
    expect((screen.getByLabelText('Date of birth') as HTMLInputElement).value).toBe('1990-04-12');
    expect(submitButton().disabled).toBe(true);

    await user.upload(screen.getByLabelText('Photo ID'), jpeg());
    await waitFor(() => expect(submitButton().disabled).toBe(false));
    await user.click(submitButton());
    expect(await card().findByText('Pending review')).toBeTruthy();
    expect(bodiesOf(fetchMock, 'POST', '/api/identity/submit')).toEqual([
      { full_name: 'Ann Marie Lee', date_of_birth: '1990-04-12' },
    ]);
  });

  it('says so when the status fails to load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeApi({ 'GET /api/identity': json({ detail: 'boom' }, 500) });
    renderWithProviders(<VerificationCard />);
    expect(await screen.findByText('Could not load your verification status')).toBeTruthy();
  });
});
