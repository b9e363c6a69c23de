import { deflateSync } from 'node:zlib';

/**
 * Small, valid documents for identity tests, made here rather than read from files: a JPEG (a
 * 24×16 picture, encoded once by a browser's canvas), PNGs of any size (built from raw scanlines)
 * and PDFs of any page count (an uncompressed page tree with a correct cross-reference table).
 */

const JPEG_24X16 =
  '/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAAoHBwgHBgoICAgLCgoLDhgQDg0NDh0VFhEYIx8lJCIfIiEmKzcvJik0KSEiMEExNDk7Pj4+JS5ESUM8SDc9Pjv/2wBDAQoLCw4NDhwQEBw7KCIoOzs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozv/wAARCAAQABgDASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAABQAC/8QAHRAAAgICAwEAAAAAAAAAAAAAAQIDBAAFBhFBUf/EABUBAQEAAAAAAAAAAAAAAAAAAAMF/8QAGxEAAQQDAAAAAAAAAAAAAAAAAAECEjEREyH/2gAMAwEAAhEDEQA/AM8v5fsNBtYqlSGs6PAJCZVYnssw8YfBinEN5a3+qlt244kdJzGBECB0FU+k/ThfL+IbDf7WK3UmrIiQCMiVmB7DMfFP0YpxDR2tBqpaluSJ3ecyAxEkdFVHoHw5YbPYuaJaxhyx3LLLGBP/2Q==';

export function jpegBytes(): Buffer {
  return Buffer.from(JPEG_24X16, 'base64');
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/**
 * A grey RGB PNG of `width` × `height`. With `declaredOnly`, the header claims the size but no
 * pixels follow: how a decompression bomb announces itself.
 */
export function pngBytes(width: number, height: number, options: { declaredOnly?: boolean } = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // RGB
  const rows = options.declaredOnly ? 1 : height;
  const raw = Buffer.alloc(rows * (1 + width * 3), 0x80);
  for (let y = 0; y < rows; y++) raw[y * (1 + width * 3)] = 0; // filter: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PDF of `pages` blank A4 pages, the first with a line of text. */
export function pdfBytes(pages: number): Buffer {
  const objects: string[] = [];
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  const pageRefs = Array.from({ length: pages }, (_, i) => `${5 + i} 0 R`);
  objects.push(`<< /Type /Pages /Kids [${pageRefs.join(' ')}] /Count ${pages} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const text = 'BT /F1 18 Tf 72 760 Td (Proof of address) Tj ET';
  objects.push(`<< /Length ${text.length} >>\nstream\n${text}\nendstream`);
  for (let i = 0; i < pages; i++) {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >>${i === 0 ? ' /Contents 4 0 R' : ''} >>`,
    );
  }
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * A multipart/form-data body as a browser sends it: the `kind` field, then the file with the name
 * and Content-Type the sender claims (which the server ignores).
 */
export function multipartUpload(
  kind: string | undefined,
  file: { bytes: Buffer; filename: string; contentType: string } | undefined,
): { payload: Buffer; headers: { 'content-type': string } } {
  const boundary = `----updown${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  if (kind !== undefined) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\n${kind}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * The upload form of a document only this account has, as the console sends it (the kind, then the
 * file): a one-page PDF that names the user, since a file another account has sent is flagged as a
 * duplicate.
 */
export function ownDocumentForm(userId: string, kind: 'photo_id' | 'proof_of_address'): FormData {
  const bytes = Buffer.concat([pdfBytes(1), Buffer.from(`% ${kind} of ${userId}\n`)]);
  const form = new FormData();
  form.set('kind', kind);
  form.set('file', new Blob([Uint8Array.from(bytes)], { type: 'application/pdf' }), `${kind}.pdf`);
  return form;
}
