import { useEffect, useRef, useState } from 'react';
import {
  DOCUMENT_KIND_LABEL,
  IDENTITY_PDF_PAGES_MAX,
  documentSummary,
  type IdentityDocument,
} from '../../../lib/identity';
import { useIdentityDocument } from '../api/get-identity-document';

/** CSS width PDF pages are drawn for; they shrink to the column on a narrow screen. */
const PDF_PAGE_WIDTH_PX = 800;

/** An image document from its bytes: a `blob:` URL made for the `<img>`, revoked when it goes. */
function BlobImage({ blob, alt }: { blob: Blob; alt: string }) {
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const url = URL.createObjectURL(blob);
    if (ref.current) ref.current.src = url;
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  return <img ref={ref} className="identity-doc__image" alt={alt} />;
}

type PdfState =
  { status: 'rendering' } | { status: 'done'; shown: number; total: number } | { status: 'failed' };

/** A PDF document drawn page by page (the first ten), with pdf.js loaded on first use. */
function PdfPages({ blob, label }: { blob: Blob; label: string }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<PdfState>({ status: 'rendering' });

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const controller = new AbortController();
    void (async () => {
      try {
        const { renderPdfPages } = await import('./pdf-pages');
        const result = await renderPdfPages(await blob.arrayBuffer(), container, {
          maxPages: IDENTITY_PDF_PAGES_MAX,
          widthPx: PDF_PAGE_WIDTH_PX,
          label,
          signal: controller.signal,
        });
        if (!controller.signal.aborted) setState({ status: 'done', ...result });
      } catch (error) {
        if (controller.signal.aborted) return;
        console.error('Failed to render the PDF document', error);
        setState({ status: 'failed' });
      }
    })();
    return () => {
      controller.abort();
      container.replaceChildren();
    };
  }, [blob, label]);

  return (
    <>
      {state.status === 'rendering' && <p className="muted small">Rendering PDF...</p>}
      {state.status === 'failed' && <p className="text-down small">Could not display this PDF</p>}
      {state.status === 'done' && state.total > state.shown && (
        <p className="muted small">
          Showing the first {state.shown} of {state.total} pages
        </p>
      )}
      {/* Filled with one canvas per page by pdf.js, outside React. */}
      <div ref={containerRef} className="identity-doc__pages" />
    </>
  );
}

/**
 * One uploaded document shown inline, fetched with the admin's token: an image as an `<img>`, a
 * PDF drawn into canvases. Nothing opens in another tab and no file is saved.
 */
export function IdentityDocumentView({ document }: { document: IdentityDocument }) {
  const file = useIdentityDocument(document.id);
  const label = DOCUMENT_KIND_LABEL[document.kind] ?? document.kind;

  useEffect(() => {
    if (file.error) console.error('Failed to load the identity document', file.error);
  }, [file.error]);

  return (
    <figure className="identity-doc">
      <figcaption>
        {documentSummary(document)}
        {document.pages !== null && ` · ${document.pages} page${document.pages === 1 ? '' : 's'}`}
      </figcaption>
      {file.data ? (
        document.content_type === 'application/pdf' ? (
          <PdfPages blob={file.data} label={label} />
        ) : (
          <BlobImage blob={file.data} alt={label} />
        )
      ) : file.isError ? (
        <p className="text-down small">Could not load this document</p>
      ) : (
        <p className="muted small">Loading document...</p>
      )}
    </figure>
  );
}
