export { DEFAULT_SCRYPT } from '../auth/password';
export { insertRefreshToken } from '../auth/sessions.repository';
export { hashRefreshToken, newRefreshToken } from '../auth/tokens';
export { setPasswordHash, setRole } from '../auth/users.repository';
export { jpegBytes, multipartUpload, ownDocumentForm, pdfBytes, pngBytes } from './identity-documents';
export { insertTestUser } from './users';
