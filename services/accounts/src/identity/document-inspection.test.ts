import { describe, expect, it } from 'vitest';
import { IDENTITY_DOCUMENT_BYTES_MAX, IDENTITY_PDF_PAGES_MAX } from '@updown/schemas/api';
import { jpegBytes, pdfBytes, pngBytes } from '../testing/identity-documents';
import { inspectDocument, openPdfInWorker, type PdfAnswer } from './document-inspection';

describe('inspectDocument', () => {
  it('accepts a JPEG, a PNG and a PDF by their content, with the hash and the page count', async () => {
    const jpeg = await inspectDocument(jpegBytes());
    expect(jpeg).toMatchObject({ contentType: 'image/jpeg', pages: null, sizeBytes: jpegBytes().length });
    expect(jpeg.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await inspectDocument(pngBytes(40, 30))).toMatchObject({ contentType: 'image/png', pages: null });
    expect(await inspectDocument(pdfBytes(2))).toMatchObject({ contentType: 'application/pdf', pages: 2 });
  });

  it('refuses what is not a JPEG, PNG or PDF, whatever it would be called', async () => {
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    await expect(inspectDocument(html)).rejects.toMatchObject({ code: 'INVALID_DOCUMENT' });
    // A GIF is a real image, but not one of the three types.
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    await expect(inspectDocument(gif)).rejects.toThrow(/JPEG, PNG or PDF/);
  });

  it('refuses an empty file and one over the size limit', async () => {
    await expect(inspectDocument(Buffer.alloc(0))).rejects.toThrow('The file is empty');
    const big = Buffer.concat([jpegBytes(), Buffer.alloc(IDENTITY_DOCUMENT_BYTES_MAX)]);
    await expect(inspectDocument(big)).rejects.toThrow('at most 10 MB');
  });

  it('refuses a truncated image and one whose header announces a decompression bomb', async () => {
    await expect(inspectDocument(jpegBytes().subarray(0, 40))).rejects.toMatchObject({
      code: 'INVALID_DOCUMENT',
    });
    await expect(inspectDocument(pngBytes(30_000, 30_000, { declaredOnly: true }))).rejects.toThrow(
      /30000×30000 pixels/,
    );
  });

  it('refuses a PDF with more pages than a document needs, and one that does not open', async () => {
    expect((await inspectDocument(pdfBytes(IDENTITY_PDF_PAGES_MAX))).pages).toBe(IDENTITY_PDF_PAGES_MAX);
    await expect(inspectDocument(pdfBytes(IDENTITY_PDF_PAGES_MAX + 1))).rejects.toThrow(
      `a document may have at most ${IDENTITY_PDF_PAGES_MAX}`,
    );
    await expect(inspectDocument(pdfBytes(50_000))).rejects.toThrow('The PDF has 50000 pages');
    await expect(inspectDocument(Buffer.from('%PDF-1.7\n% nothing else'))).rejects.toThrow(
      'The PDF could not be read',
    );
  });

  it('opens a PDF through the opener it is given, and only a PDF, so the caller decides its turn', async () => {
    const opened: number[] = [];
    const opener = async (bytes: Buffer): Promise<PdfAnswer> => {
      opened.push(bytes.length);
      return openPdfInWorker(bytes);
    };
    expect((await inspectDocument(pdfBytes(3), opener)).pages).toBe(3);
    await inspectDocument(jpegBytes(), opener);
    await inspectDocument(pngBytes(8, 8), opener);
    expect(opened).toEqual([pdfBytes(3).length]);
    // What the opener answers is what decides: a refusal from it is the document's refusal.
    await expect(inspectDocument(pdfBytes(1), async () => ({ error: 'password' }))).rejects.toThrow(
      'The PDF is password-protected',
    );
  });
});
