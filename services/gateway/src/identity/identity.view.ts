import type { IdentityDocument } from '@updown/schemas/api';
import type { DocumentRow } from '@updown/accounts';

export function documentView(row: DocumentRow): IdentityDocument {
  return {
    id: row.id,
    kind: row.kind,
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    sha256: row.sha256,
    pages: row.pages,
    uploaded_at: row.uploaded_at.toISOString(),
  };
}
