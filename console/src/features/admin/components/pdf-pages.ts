import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

/*
 * pdf.js, for the Verification tab only: this module is imported dynamically when a PDF document
 * is shown, so neither the library nor its worker is in any other chunk. The worker is a file of
 * the build served from the console's own origin (`script-src 'self'` covers it).
 */
GlobalWorkerOptions.workerSrc = workerUrl;

export interface PdfPagesOptions {
  /** Pages drawn at most; the rest are counted, not drawn. */
  maxPages: number;
  /** CSS width the pages are drawn for (sharper on high-density screens). */
  widthPx: number;
  /** Names the page images: `${label}, page 2 of 3`. */
  label: string;
  signal: AbortSignal;
}

export interface PdfPagesResult {
  total: number;
  shown: number;
}

/**
 * Draws the first pages of a PDF into `container`, one `<canvas>` each, and frees the document
 * (the canvases keep the pixels). No script in the file runs and nothing is evaluated
 * (`isEvalSupported: false`): the bytes come from a trader.
 */
export async function renderPdfPages(
  data: ArrayBuffer,
  container: HTMLElement,
  { maxPages, widthPx, label, signal }: PdfPagesOptions,
): Promise<PdfPagesResult> {
  const task = getDocument({ data: new Uint8Array(data), isEvalSupported: false, enableXfa: false });
  const abort = () => void task.destroy();
  signal.addEventListener('abort', abort, { once: true });
  try {
    const pdf = await task.promise;
    const shown = Math.min(pdf.numPages, maxPages);
    const pixelRatio = Math.min(globalThis.devicePixelRatio || 1, 2);
    for (let number = 1; number <= shown && !signal.aborted; number += 1) {
      const page = await pdf.getPage(number);
      const scale = (widthPx / page.getViewport({ scale: 1 }).width) * pixelRatio;
      const viewport = page.getViewport({ scale });
      const canvas = document.createElement('canvas');
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.className = 'identity-doc__page';
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', `${label}, page ${number} of ${pdf.numPages}`);
      container.append(canvas);
      await page.render({ canvas, viewport }).promise;
      page.cleanup();
    }
    return { total: pdf.numPages, shown };
  } finally {
    signal.removeEventListener('abort', abort);
    void task.destroy();
  }
}
