// @vitest-environment jsdom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { tokenStore } from '../../../lib/token-store';
import {
  PROOF_OF_ADDRESS_PDF,
  identityDocument,
  verificationDetail,
  verificationSummary,
} from '../../../testing/fake-identity';
import { renderWithProviders } from '../../../testing/render';
import { bodiesOf, calls, fakeAdminApi, json, type FetchMock } from '../testing/fake-admin-api';
import { VerificationTab } from './verification-tab';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

// jsdom has no canvas: pdf.js is replaced by a document whose pages "render" at once.
const pdfjs = vi.hoisted(() => ({ getDocument: vi.fn(), GlobalWorkerOptions: { workerSrc: '' } }));
vi.mock('pdfjs-dist', () => pdfjs);
vi.mock('pdfjs-dist/build/pdf.worker.min.mjs?url', () => ({ default: '/assets/pdf.worker.min.mjs' }));

function fakePdf(numPages: number) {
  const render = vi.fn(() => ({ promise: Promise.resolve() }));
  const destroy = vi.fn(async () => {});
  pdfjs.getDocument.mockImplementation(() => ({
    promise: Promise.resolve({
      numPages,
      getPage: async () => ({
        getViewport: ({ scale }: { scale: number }) => ({ width: 600 * scale, height: 800 * scale }),
        render,
        cleanup: () => {},
      }),
    }),
    destroy,
  }));
  return { render, destroy };
}

// The PDF renderer is a dynamic import. Loading it once up front keeps the first PDF from waiting
// on the test runner's module transform; the longer wait covers a busy machine.
const PDF_RENDERED = { timeout: 5000 };

beforeAll(async () => {
  await import('./pdf-pages');
});

const createObjectURL = vi.fn((_blob: Blob) => 'blob:http://localhost/photo-id');
const revokeObjectURL = vi.fn((_url: string) => {});

beforeEach(() => {
  localStorage.clear();
  tokenStore.setAccessToken('admin-token');
  // jsdom has no object URLs either.
  Object.assign(URL, { createObjectURL, revokeObjectURL });
});

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

const ANN = verificationSummary({
  duplicate_signals: [
    { user_id: '00000000-0000-4000-8000-0000000000b2', email: 'bob@example.com', reason: 'same_document' },
    {
      user_id: '00000000-0000-4000-8000-0000000000c3',
      email: 'cy@example.com',
      reason: 'same_name_and_birth_date',
    },
  ],
});
const DAN = verificationSummary({
  id: 'eeeeeeee-0000-4000-8000-000000000004',
  user_id: '00000000-0000-4000-8000-0000000000d4',
  email: 'dan@example.com',
  account_name: 'Dan',
  full_name: 'Daniel Smith',
  date_of_birth: '1985-12-01',
  submitted_at: '2026-11-21T12:30:00.000Z',
});
const VERIFIED_EVE = verificationSummary({
  id: 'eeeeeeee-0000-4000-8000-000000000005',
  email: 'eve@example.com',
  status: 'verified',
  decided_at: '2026-11-21T13:00:00.000Z',
  decided_by_email: 'admin@example.com',
});

const PHOTO = identityDocument();
const LIST = '/api/admin/verifications';
const ANN_DETAIL = `${LIST}/${ANN.id}`;

/** The list answers by the `status` query parameter. */
function listRoute(byStatus: Record<string, unknown[]>) {
  return (_body: unknown, url: string) =>
    json(byStatus[new URL(url, 'http://x').searchParams.get('status') ?? ''] ?? []);
}

function adminApi(routes: Record<string, Response | ((body: unknown, url: string) => Response)> = {}) {
  return fakeAdminApi({
    [`GET ${LIST}`]: listRoute({ pending: [ANN, DAN], all: [ANN, DAN, VERIFIED_EVE] }),
    [`GET ${ANN_DETAIL}`]: json(verificationDetail(ANN)),
    [`GET /api/identity/documents/${PHOTO.id}`]: new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), {
      headers: { 'content-type': 'image/jpeg' },
    }),
    [`GET /api/identity/documents/${PROOF_OF_ADDRESS_PDF.id}`]: new Response(
      new TextEncoder().encode('%PDF-1.7 fake'),
      { headers: { 'content-type': 'application/pdf' } },
    ),
    ...routes,
  });
}

function rowOf(email: string) {
  return within(screen.getByText(email).closest('tr')!);
}

function listLoads(fetchMock: FetchMock): number {
  return calls(fetchMock).filter((call) => call.startsWith(`GET ${LIST}?`)).length;
}

async function openReview(user: ReturnType<typeof userEvent.setup>) {
  await user.click(rowOf('ann@example.com').getByRole('button', { name: 'Review' }));
  return within(await screen.findByRole('region', { name: 'Verification review' }));
}

describe('VerificationTab', () => {
  it('lists the pending queue with the trader, legal details, submission time and duplicate signals', async () => {
    const fetchMock = adminApi();
    renderWithProviders(<VerificationTab />);
    await screen.findByText('ann@example.com');
    expect(calls(fetchMock)).toEqual([`GET ${LIST}?status=pending`]);
    for (const name of ['Email', 'Account name', 'Legal name', 'Date of birth', 'Submitted', 'Duplicates'])
      expect(screen.getByRole('columnheader', { name })).toBeTruthy();
    // In the server's order: the oldest submission first.
    const emails = screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => (row as HTMLTableRowElement).cells[0]!.textContent);
    expect(emails).toEqual(['ann@example.com', 'dan@example.com']);

    const ann = rowOf('ann@example.com');
    expect(ann.getByText('Ann Lee')).toBeTruthy();
    expect(ann.getByText('Ann Marie Lee')).toBeTruthy();
    expect(ann.getByText(new Date(1990, 3, 12).toLocaleDateString())).toBeTruthy();
    expect(ann.getByText(new Date(ANN.submitted_at).toLocaleString())).toBeTruthy();
    expect(ann.getByText('Pending').className).toContain('badge--pending');
    expect(ann.getByText('Possible duplicate').className).toContain('badge--down');
    const signals = within(ann.getByRole('list', { name: 'Duplicate signals' }));
    expect(signals.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Same document as bob@example.com',
      'Same name and date of birth as cy@example.com',
    ]);

    const dan = rowOf('dan@example.com');
    expect(dan.getByText('Daniel Smith')).toBeTruthy();
    expect(dan.queryByText('Possible duplicate')).toBeNull();
  });

  it('filters by status', async () => {
    const fetchMock = adminApi();
    const user = userEvent.setup();
    renderWithProviders(<VerificationTab />);
    await screen.findByText('ann@example.com');
    expect(screen.getByRole('button', { name: 'Pending' }).getAttribute('aria-pressed')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'All' }));
    expect(await screen.findByText('eve@example.com')).toBeTruthy();
    expect(rowOf('eve@example.com').getByText('Verified').className).toContain('badge--up');
    await user.click(screen.getByRole('button', { name: 'Rejected' }));
    expect(await screen.findByText('No rejected submissions')).toBeTruthy();
    expect(calls(fetchMock)).toEqual([
      `GET ${LIST}?status=pending`,
      `GET ${LIST}?status=all`,
      `GET ${LIST}?status=rejected`,
    ]);
  });

  it('says so when the queue is empty', async () => {
    fakeAdminApi({ [`GET ${LIST}`]: json([]) });
    renderWithProviders(<VerificationTab />);
    expect(await screen.findByText('No verifications waiting for review')).toBeTruthy();
  });

  it('opens a submission with its documents inline: the image from a blob URL, the PDF drawn page by page', async () => {
    fakePdf(3);
    const fetchMock = adminApi();
    const user = userEvent.setup();
    renderWithProviders(<VerificationTab />);
    await screen.findByText('ann@example.com');
    const review = await openReview(user);
    expect(await review.findByRole('heading', { name: 'Verification of ann@example.com' })).toBeTruthy();
    expect(review.getByText('Same document as bob@example.com')).toBeTruthy();

    // The image: fetched with the admin's token, shown from an object URL.
    const image = (await review.findByRole('img', { name: 'Photo ID' }, PDF_RENDERED)) as HTMLImageElement;
    await waitFor(() => expect(image.src).toBe('blob:http://localhost/photo-id'), PDF_RENDERED);
    const download = fetchMock.mock.calls.find(([url]) => url === `/api/identity/documents/${PHOTO.id}`)!;
    expect((download[1]!.headers as Record<string, string>).authorization).toBe('Bearer admin-token');
    expect(createObjectURL.mock.calls[0]![0].type).toBe('image/jpeg');
    expect(review.getByText('Photo ID · JPEG · 1.5 MB')).toBeTruthy();

    // The PDF: every page a canvas, with nothing evaluated.
    const pages = await review.findAllByRole('img', { name: /^Proof of address, page/ }, PDF_RENDERED);
    expect(pages.map((page) => page.getAttribute('aria-label'))).toEqual([
      'Proof of address, page 1 of 3',
      'Proof of address, page 2 of 3',
      'Proof of address, page 3 of 3',
    ]);
    expect(pages[0]!.tagName).toBe('CANVAS');
    expect(pdfjs.getDocument).toHaveBeenCalledWith(expect.objectContaining({ isEvalSupported: false }));
    expect(pdfjs.GlobalWorkerOptions.workerSrc).toBe('/assets/pdf.worker.min.mjs');
    expect(review.getByText('Proof of address · PDF · 244 KB · 3 pages')).toBeTruthy();

    // The history of decisions on this trader.
    const history = within(review.getByRole('table', { name: 'Decision history' }));
    expect(history.getAllByRole('row')).toHaveLength(3);
    expect(history.getByText('The proof of address is older than three months')).toBeTruthy();
    expect(history.getByText('admin@example.com')).toBeTruthy();

    // Closing it lets go of the image's object URL.
    await user.click(review.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: 'Verification review' })).toBeNull();
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/photo-id');
  });

  it('draws at most 10 pages of a PDF', async () => {
    const { render } = fakePdf(12);
    adminApi();
    const user = userEvent.setup();
    renderWithProviders(<VerificationTab />);
    await screen.findByText('ann@example.com');
    const review = await openReview(user);
    expect(await review.findByText('Showing the first 10 of 12 pages', undefined, PDF_RENDERED)).toBeTruthy();
    expect(review.getAllByRole('img', { name: /^Proof of address, page/ })).toHaveLength(10);
    expect(render).toHaveBeenCalledTimes(10);
  });

  it('says so when a PDF cannot be drawn', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    pdfjs.getDocument.mockImplementation(() => ({
      promise: Promise.reject(new Error('Invalid PDF structure')),
      destroy: async () => {},
    }));
    adminApi();
    const user = userEvent.setup();
    renderWithProviders(<VerificationTab />);
    await screen.findByText('ann@example.com');
    const review = await openReview(user);
    expect(await review.findByText('Could not display this PDF', undefined, PDF_RENDERED)).toBeTruthy();
  });

  it('approves, toasts, reloads the queue and closes the review', async () => {
    fakePdf(1);
    let pending = [ANN, DAN];
    const fetchMock = adminApi({
      [`GET ${LIST}`]: () => json(pending),
      [`POST ${ANN_DETAIL}`]: () => {
        pending = [DAN];
        return json({ ...ANN, status: 'verified' });
      },
      'GET /api/admin/withdrawals': json([]),
    });
    const user = userEvent.setup();
    renderWithProviders(<VerificationTab />);
    await screen.findByText('ann@example.com');
    const review = await openReview(user);
    await user.click(await review.findByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Verification approved'));
    expect(bodiesOf(fetchMock, 'POST', ANN_DETAIL)).toEqual([{ action: 'approve' }]);
    await waitFor(() => expect(screen.queryByText('ann@example.com')).toBeNull());
    expect(screen.getByText('dan@example.com')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Verification review' })).toBeNull();
  });

  it('rejects only with a reason, which is sent trimmed', async () => {
    fakePdf(1);
    const fetchMock = adminApi({
      [`POST ${ANN_DETAIL}`]: json({ ...ANN, status: 'rejected', rejection_reason: 'Blurred photo' }),
    });
    const user = userEvent.setup();
    renderWithProviders(<VerificationTab />);
    await screen.findByText('ann@example.com');
    const review = await openReview(user);
    const reject = (await review.findByRole('button', { name: 'Reject' })) as HTMLButtonElement;
    expect(reject.disabled).toBe(true);
    const reason = review.getByLabelText('Rejection reason') as HTMLTextAreaElement;
    expect(reason.maxLength).toBe(500);
    await user.type(reason, '   ');
    expect(reject.disabled).toBe(true);
    await user.type(reason, 'Blurred photo ');
    expect(reject.disabled).toBe(false);
    await user.click(reject);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Verification rejected'));
    expect(bodiesOf(fetchMock, 'POST', ANN_DETAIL)).toEqual([{ action: 'reject', reason: 'Blurred photo' }]);
  });

  it.each([
    [409, 'VERIFICATION_NOT_PENDING', 'This verification was already decided by another admin'],
    [403, 'OWN_VERIFICATION', 'You cannot decide your own verification'],
  ])("shows the server's detail on a %i and reloads the queue", async (status, code, detail) => {
    fakePdf(1);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetchMock = adminApi({
      [`POST ${ANN_DETAIL}`]: json({ code, detail }, status),
      'GET /api/admin/withdrawals': json([]),
    });
    const user = userEvent.setup();
    renderWithProviders(<VerificationTab />);
    await screen.findByText('ann@example.com');
    const review = await openReview(user);
    const loadsBefore = listLoads(fetchMock);
    await user.click(await review.findByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(detail));
    expect(toast.success).not.toHaveBeenCalled();
    await waitFor(() => expect(listLoads(fetchMock)).toBeGreaterThan(loadsBefore));
    expect(calls(fetchMock).filter((call) => call === `GET ${ANN_DETAIL}`).length).toBeGreaterThan(1);
  });

  it("toasts 'Failed to load admin data' when the queue fails to load", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeAdminApi({ [`GET ${LIST}`]: json({ detail: 'boom' }, 500) });
    renderWithProviders(<VerificationTab />);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to load admin data'));
  });
});
