import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import {
  IDENTITY_DOCUMENT_BYTES_MAX,
  IDENTITY_IMAGE_PIXELS_MAX,
  IDENTITY_IMAGE_SIDE_MAX,
  IDENTITY_PDF_PAGES_MAX,
} from '@updown/schemas/api';
import { InvalidDocument } from './identity.domain';

/**
 * What an uploaded document is, decided from its bytes alone: the file name and the upload's
 * Content-Type are never read. A JPEG, PNG or PDF that opens is accepted; anything else, an empty
 * file, an image too large to decode safely or a PDF with too many pages (a viewer bomb) or a
 * password is refused with the reason.
 */

export type DocumentContentType = 'image/jpeg' | 'image/png' | 'application/pdf';

export interface InspectedDocument {
  readonly contentType: DocumentContentType;
  readonly sizeBytes: number;
  readonly sha256: string;
  readonly pages: number | null;
}

/** How long opening one PDF may take before it counts as unreadable. */
const PDF_INSPECTION_TIMEOUT_MS = 15_000;
const MB = IDENTITY_DOCUMENT_BYTES_MAX / (1024 * 1024);

/** A PDF's page count, or why it does not open. */
export type PdfAnswer = { pages: number } | { error: 'password' | 'invalid' };

/**
 * Opens a PDF. The caller decides when: the upload route passes one that waits its turn in the
 * process's bounded queue (pdf-inspection-queue.ts) before `openPdfInWorker`.
 */
export type PdfOpener = (bytes: Buffer) => Promise<PdfAnswer>;

export async function inspectDocument(
  bytes: Buffer,
  openPdf: PdfOpener = openPdfInWorker,
): Promise<InspectedDocument> {
  if (bytes.length === 0) throw new InvalidDocument('The file is empty', 'empty');
  if (bytes.length > IDENTITY_DOCUMENT_BYTES_MAX)
    throw new InvalidDocument(`A document may be at most ${MB} MB`, 'size');
  const detected = await fileTypeFromBuffer(bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  switch (detected?.mime) {
    case 'image/jpeg':
    case 'image/png':
      checkImage(bytes, detected.mime);
      return { contentType: detected.mime, sizeBytes: bytes.length, sha256, pages: null };
    case 'application/pdf':
      return {
        contentType: 'application/pdf',
        sizeBytes: bytes.length,
        sha256,
        pages: await pdfPages(bytes, openPdf),
      };
    default:
      throw new InvalidDocument(
        'Upload a JPEG, PNG or PDF file (checked from its content, not its name)',
        'type',
      );
  }
}

function checkImage(bytes: Buffer, mime: 'image/jpeg' | 'image/png'): void {
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch {
    throw new InvalidDocument('The image could not be read; upload it again or as a PDF', 'unreadable');
  }
  const expected = mime === 'image/png' ? 'png' : 'jpg';
  const { width = 0, height = 0 } = size;
  if (size.type !== expected || width < 1 || height < 1) {
    throw new InvalidDocument('The image could not be read; upload it again or as a PDF', 'unreadable');
  }
  if (
    width > IDENTITY_IMAGE_SIDE_MAX ||
    height > IDENTITY_IMAGE_SIDE_MAX ||
    width * height > IDENTITY_IMAGE_PIXELS_MAX
  ) {
    throw new InvalidDocument(
      `The image is ${width}×${height} pixels; at most ${IDENTITY_IMAGE_SIDE_MAX} per side and ${IDENTITY_IMAGE_PIXELS_MAX / 1_000_000} megapixels`,
      'image_size',
    );
  }
}

async function pdfPages(bytes: Buffer, openPdf: PdfOpener): Promise<number> {
  const answer = await openPdf(bytes);
  if ('error' in answer) {
    throw answer.error === 'password'
      ? new InvalidDocument('The PDF is password-protected; upload it without a password', 'password')
      : new InvalidDocument('The PDF could not be read; upload it again or as a photo', 'unreadable');
  }
  if (answer.pages < 1) throw new InvalidDocument('The PDF has no pages', 'unreadable');
  if (answer.pages > IDENTITY_PDF_PAGES_MAX) {
    throw new InvalidDocument(
      `The PDF has ${answer.pages} pages; a document may have at most ${IDENTITY_PDF_PAGES_MAX}`,
      'pages',
    );
  }
  return answer.pages;
}

/** A PDF's page count, or why it does not open, answered by pdf.js in a worker thread. */
export function openPdfInWorker(bytes: Buffer): Promise<PdfAnswer> {
  return new Promise<PdfAnswer>((resolve) => {
    // A copy for the worker: the upload's buffer may be a view into a pooled allocation.
    const worker = new Worker(new URL('./pdf-inspect.worker.mjs', import.meta.url), {
      workerData: Uint8Array.from(bytes),
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({ error: 'invalid' });
    }, PDF_INSPECTION_TIMEOUT_MS);
    const finish = (value: PdfAnswer) => {
      clearTimeout(timer);
      resolve(value);
    };
    worker.once('message', (message: PdfAnswer) => finish(message));
    worker.once('error', () => finish({ error: 'invalid' }));
    worker.once('exit', () => finish({ error: 'invalid' }));
  });
}
